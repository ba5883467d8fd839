// How a proxy URL maps onto a provider: /<providerId>/<rest> (or /<providerId>/_lease/<leaseId>/<rest>,
// SPEC §6 "Lease-scoped requests") goes to <upstream><rest>, and only the generation endpoints
// of SPEC §6 are gated (model lists, token counts and the like pass straight through: they do
// not use a concurrency slot upstream).
import { PROVIDER_ID_PATTERN } from "../../shared/validate";
import { normalisePath } from "./path-normaliser";

// `/responses` at the root: Codex on a ChatGPT login posts to `<base_url>/responses`, its
// upstream being https://chatgpt.com/backend-api/codex.
const GENERATION_PATHS = new Set(["/v1/messages", "/v1/chat/completions", "/v1/completions", "/v1/responses", "/responses"]);
// Gemini's generation methods: `/<version>/models/<model>:generateContent` (or
// `:streamGenerateContent`), the model named in the path rather than the body.
const GEMINI_GENERATION = /^\/(?:v1|v1beta)\/models\/([^/]*):(?:stream)?generatecontent$/;
// An escaped colon would make Google's router see the method where the gate saw none.
const GEMINI_ESCAPED_COLON = /^\/(?:v1|v1beta)\/models\/[^/]*%3a/;
const LEASE_SCOPE = "_lease";
const MAX_MODEL_LENGTH = 200;

export interface ProxyTarget {
  providerId: string;
  /** Set on /<providerId>/_lease/<leaseId>/...: requests ride on that held lease. */
  leaseId?: string;
  /** The path after the prefix as the upstream gets it, always starting with "/", without the query. */
  rest: string;
  /** The canonical form of `rest` (decoded, lower-cased, no trailing slash) that gating is decided on. */
  gatingPath: string;
  /** "?..." or "". */
  query: string;
  /** Gemini's generation paths name the model (canonical form); the body names it elsewhere. */
  pathModel?: string;
}

export type ParsedProxyPath = ProxyTarget | { refused: string } | undefined;

// Agents send the same few paths again and again: each is parsed once (the answers are never
// changed by their readers). Bounded in count and in what a key may hold.
const MEMO_MAX = 512;
const MEMO_KEY_MAX = 512;
const parsedPaths = new Map<string, ParsedProxyPath>();

function remembered<K, V>(memo: Map<K, V>, key: K, value: V): V {
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(key, value);
  return value;
}

/** undefined when the first segment is not a well-formed provider id; `refused` for a 400. */
export function parseProxyPath(rawUrl: string): ParsedProxyPath {
  if (rawUrl.length > MEMO_KEY_MAX) return parsePath(rawUrl);
  const known = parsedPaths.get(rawUrl);
  if (known !== undefined || parsedPaths.has(rawUrl)) return known;
  // Frozen: one answer serves every request with that spelling.
  return remembered(parsedPaths, rawUrl, Object.freeze(parsePath(rawUrl)));
}

function parsePath(rawUrl: string): ParsedProxyPath {
  const queryAt = rawUrl.indexOf("?");
  const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  const query = queryAt === -1 ? "" : rawUrl.slice(queryAt);
  const normalised = normalisePath(path, (segments) => (segments[1] === LEASE_SCOPE ? 3 : 1));
  if (!normalised.ok) return { refused: normalised.message };
  const { segments, canonical, trailingSlash } = normalised;
  const providerId = segments[0];
  if (providerId === undefined || !PROVIDER_ID_PATTERN.test(providerId)) return undefined;
  const scoped = segments[1] === LEASE_SCOPE;
  if (scoped && segments[2] === undefined) return { refused: "a lease-scoped path needs a lease id: /<provider>/_lease/<leaseId>/..." };
  const skip = scoped ? 3 : 1;
  const restSegments = segments.slice(skip);
  const rest = `/${restSegments.join("/")}${trailingSlash && restSegments.length > 0 ? "/" : ""}`;
  const gatingPath = `/${canonical.slice(skip).join("/")}`;
  if (GEMINI_ESCAPED_COLON.test(gatingPath)) {
    return { refused: "a Gemini model path holds an escaped colon (%3A); send `:generateContent` with a plain colon." };
  }
  const geminiModel = GEMINI_GENERATION.exec(gatingPath)?.[1];
  const pathModel = geminiModel === undefined ? undefined : geminiModel === "" || geminiModel.length > MAX_MODEL_LENGTH ? "unknown" : geminiModel;
  return { providerId, ...(scoped ? { leaseId: segments[2] } : {}), rest, gatingPath, query, ...(pathModel === undefined ? {} : { pathModel }) };
}

export function isGeneration(method: string, target: ProxyTarget): boolean {
  return method === "POST" && (GENERATION_PATHS.has(target.gatingPath) || target.pathModel !== undefined);
}

/** A WebSocket upgrade on a generation path (Codex's Responses transport) is gated too. */
export function isGatedUpgrade(method: string, target: ProxyTarget): boolean {
  return method === "GET" && GENERATION_PATHS.has(target.gatingPath);
}

// Parsed once per upstream, not per request; a handful of upstreams, so the map stays small.
const parsedBases = new Map<string, string>();
const upstreamUrls = new Map<string, URL>();

/** The upstream URL: the provider's base (which may carry a path, e.g. /api) + rest + query. */
export function upstreamUrl(base: string, target: ProxyTarget): URL {
  let prefix = parsedBases.get(base);
  if (prefix === undefined) {
    const url = new URL(base);
    prefix = `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
    if (parsedBases.size >= 64) parsedBases.clear();
    parsedBases.set(base, prefix);
  }
  const href = `${prefix}${target.rest}${target.query}`;
  if (href.length > MEMO_KEY_MAX) return new URL(href);
  return upstreamUrls.get(href) ?? remembered(upstreamUrls, href, new URL(href));
}
