// Which headers cross the proxy. End-to-end headers (credentials included) pass byte for
// byte; hop-by-hop headers (RFC 9110 §7.6.1) describe one connection and are dropped, as
// are the headers a Connection header names.
import type { IncomingMessage, OutgoingHttpHeaders } from "node:http";

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
export const AGENT_HEADER = "x-headroom-agent";
/** The hosts a request went through, so an upstream that points back at a proxy is caught (SPEC §6 "Loops"). */
export const HOP_HEADER = "x-headroom-hop";
/** The held lease a request rides on (SPEC §6 "Lease-scoped requests"); ours, never forwarded. */
export const LEASE_HEADER = "x-headroom-lease";

function connectionTokens(value: string[] | undefined): Set<string> {
  const tokens = new Set<string>();
  for (const line of value ?? []) for (const token of line.split(",")) tokens.add(token.trim().toLowerCase());
  return tokens;
}

function endToEnd(headers: NodeJS.Dict<string[]>, also: Set<string>): OutgoingHttpHeaders {
  const named = connectionTokens(headers.connection);
  const out: OutgoingHttpHeaders = {};
  for (const [name, values] of Object.entries(headers)) {
    if (values === undefined || HOP_BY_HOP.has(name) || named.has(name) || also.has(name)) continue;
    out[name] = values.length === 1 ? values[0] : values;
  }
  return out;
}

// host is rewritten to the upstream's; expect was answered by us already; the agent header is ours.
const REQUEST_DROPS = new Set(["host", "expect", AGENT_HEADER, HOP_HEADER, LEASE_HEADER]);
const NO_DROPS = new Set<string>();

/** The hop ids a request carries, in order. */
export function hopsOf(req: IncomingMessage): string[] {
  return (req.headersDistinct[HOP_HEADER] ?? []).flatMap((line) => line.split(",").map((id) => id.trim()));
}

/**
 * Headers for the upstream request; `bodyLength` when the proxy read the body itself. `hopId`
 * is appended to the hops the request already went through.
 */
export function requestHeaders(req: IncomingMessage, upstream: URL, hopId: string, bodyLength?: number): OutgoingHttpHeaders {
  const out = endToEnd(req.headersDistinct, REQUEST_DROPS);
  out.host = upstream.host;
  out[HOP_HEADER] = [...hopsOf(req), hopId].join(", ");
  if (bodyLength !== undefined) out["content-length"] = String(bodyLength);
  return out;
}

export function responseHeaders(res: IncomingMessage): OutgoingHttpHeaders {
  return endToEnd(res.headersDistinct, NO_DROPS);
}

/** The agent name from our own header, when it is short printable text. */
export function agentOf(req: IncomingMessage): string | undefined {
  const value = req.headers[AGENT_HEADER];
  if (typeof value !== "string") return undefined;
  const agent = value.trim();
  return agent.length > 0 && agent.length <= 200 && !/[\u0000-\u001f\u007f]/.test(agent) ? agent : undefined;
}
