// Which headers cross the proxy. End-to-end headers (credentials included) pass byte for
// byte; hop-by-hop headers (RFC 9110 §7.6.1) describe one connection and are dropped, as
// are the headers a Connection header names.
import type { IncomingMessage } from "node:http";
import { tame } from "../../shared/tame";

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** Tells the window which agent holds a slot; Headroom's own, never forwarded. */
const AGENT_HEADER = "x-headroom-agent";
/** The hosts a request went through, so an upstream that points back at a proxy is caught (SPEC §6 "Loops"). */
const HOP_HEADER = "x-headroom-hop";
/** The held lease a request rides on (SPEC §6 "Lease-scoped requests"); ours, never forwarded. */
export const LEASE_HEADER = "x-headroom-lease";

/** Names to drop, and their lengths: a name of another length is kept without lower-casing it. */
interface Drops {
  names: Set<string>;
  lengths: Set<number>;
}

const dropsOf = (names: Iterable<string>): Drops => {
  const set = new Set(names);
  return { names: set, lengths: new Set([...set].map((name) => name.length)) };
};

/** A Connection value that names only headers dropped anyway (or none). */
const ONLY_HOP_BY_HOP = /^[\t ,]*(?:(?:keep-alive|close)(?=[\t ,]|$)[\t ,]*)*$/i;

// rawHeaders in, rawHeaders out: names keep their case, repeated headers their order, and no
// header object is built per request (Node's request and writeHead take this flat form).
// Only a name as long as one to drop is lower-cased (once); the headers a Connection header
// names (usually none) are dropped in a second pass only when there is one.
function endToEnd(raw: string[], drops: Drops): string[] {
  const out: string[] = [];
  let connection: string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = drops.lengths.has(name.length) ? name.toLowerCase() : undefined;
    if (lower === undefined || !drops.names.has(lower)) {
      out.push(name, raw[i + 1]!);
      continue;
    }
    // "keep-alive" and "close", what nearly every client sends, name nothing left to drop.
    if (lower === "connection" && !ONLY_HOP_BY_HOP.test(raw[i + 1]!)) (connection ??= []).push(raw[i + 1]!);
  }
  if (!connection) return out;
  const named = new Set(connection.flatMap((value) => value.split(",").map((token) => token.trim().toLowerCase())));
  const kept: string[] = [];
  for (let i = 0; i < out.length; i += 2) if (!named.has(out[i]!.toLowerCase())) kept.push(out[i]!, out[i + 1]!);
  return kept;
}

// host is rewritten to the upstream's; expect was answered by us already; agent, hop and lease
// headers are ours. Each set holds the hop-by-hop names too.
const REQUEST_NAMES = [...HOP_BY_HOP, "host", "expect", AGENT_HEADER, HOP_HEADER, LEASE_HEADER];
const REQUEST_DROPS = dropsOf(REQUEST_NAMES);
// When the proxy read the body itself, it states the length it sends.
const READ_BODY_DROPS = dropsOf([...REQUEST_NAMES, "content-length"]);
const RESPONSE_DROPS = dropsOf(HOP_BY_HOP);

/** The hop ids a request carries, in order. */
export function hopsOf(req: IncomingMessage): string[] {
  const value = req.headers[HOP_HEADER];
  return typeof value === "string" ? value.split(",").map((id) => id.trim()) : [];
}

/**
 * Headers for the upstream request, in raw form; `bodyLength` when the proxy read the body
 * itself. `hopId` is appended to the hops the request already went through.
 */
export function requestHeaders(req: IncomingMessage, upstream: URL, hopId: string, bodyLength?: number): string[] {
  const out = endToEnd(req.rawHeaders, bodyLength === undefined ? REQUEST_DROPS : READ_BODY_DROPS);
  out.push("host", upstream.host, HOP_HEADER, [...hopsOf(req), hopId].join(", "));
  if (bodyLength !== undefined) out.push("content-length", String(bodyLength));
  return out;
}

export function responseHeaders(res: IncomingMessage): string[] {
  return endToEnd(res.rawHeaders, RESPONSE_DROPS);
}

/** The agent name from our own header, tamed (SPEC §6: no C0, DEL or C1 character, at most 128). */
export function agentOf(req: IncomingMessage): string | undefined {
  const value = req.headers[AGENT_HEADER];
  if (typeof value !== "string") return undefined;
  const agent = value.trim();
  return agent.length > 0 ? tame(agent) : undefined;
}
