// How a proxy URL maps onto a provider: /<providerId>/<rest> goes to <upstream><rest>, and
// only the generation endpoints of SPEC §6 are gated (model lists, token counts and the
// like pass straight through: they do not use a concurrency slot upstream).
import { PROVIDER_ID_PATTERN } from "../../shared/validate";

const GENERATION_PATHS = new Set(["/v1/messages", "/v1/chat/completions", "/v1/completions", "/v1/responses"]);

export interface ProxyTarget {
  providerId: string;
  /** The path after the provider prefix, always starting with "/", without the query. */
  rest: string;
  /** "?..." or "". */
  query: string;
}

/** undefined when the first segment is not a well-formed provider id. */
export function parseProxyPath(rawUrl: string): ProxyTarget | undefined {
  const queryAt = rawUrl.indexOf("?");
  const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  const query = queryAt === -1 ? "" : rawUrl.slice(queryAt);
  const match = /^\/([^/]+)(\/.*)?$/.exec(path);
  if (!match || !PROVIDER_ID_PATTERN.test(match[1]!)) return undefined;
  // Dot segments resolved here, as the upstream would resolve them: /v1/x/../messages must be
  // gated like the /v1/messages it reaches, and cannot climb above the provider's base path.
  const rest = new URL(`http://upstream${match[2] ?? "/"}`).pathname;
  return { providerId: match[1]!, rest, query };
}

export function isGeneration(method: string, rest: string): boolean {
  return method === "POST" && GENERATION_PATHS.has(rest.length > 1 ? rest.replace(/\/+$/, "") : rest);
}

// Parsed once per upstream, not per request; a handful of upstreams, so the map stays small.
const parsedBases = new Map<string, string>();

/** The upstream URL: the provider's base (which may carry a path, e.g. /api) + rest + query. */
export function upstreamUrl(base: string, target: ProxyTarget): URL {
  let prefix = parsedBases.get(base);
  if (prefix === undefined) {
    const url = new URL(base);
    prefix = `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
    if (parsedBases.size >= 64) parsedBases.clear();
    parsedBases.set(base, prefix);
  }
  return new URL(`${prefix}${target.rest}${target.query}`);
}
