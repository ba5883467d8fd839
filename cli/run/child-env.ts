// The wrapped command's environment (SPEC §6 "Lease-scoped requests"): it learns its lease
// (HEADROOM_LEASE_ID), and base URLs pointing at this host's proxy for the provider are
// scoped to that lease, so the agent's own requests ride on the slot `headroom run` holds
// instead of queueing behind it (a deadlock at limit 1, two slots per agent above it).
import type { ApiClient } from "../../shared/api-client";
import type { Admission } from "../../shared/types";

const BASE_URL_VARIABLES = ["ANTHROPIC_BASE_URL", "OPENAI_BASE_URL"] as const;
const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Same proxy: same port on a loopback name (127.0.0.1 and localhost are one machine). */
function sameProxy(a: URL, b: URL): boolean {
  return a.protocol === b.protocol && a.port === b.port && LOOPBACK_NAMES.has(a.hostname) && LOOPBACK_NAMES.has(b.hostname);
}

/** `…/<id>/v1` → `…/<id>/_lease/<leaseId>/v1`, or undefined when `value` is not the proxy's URL for the provider. */
function scopeToLease(value: string, proxyUrl: string, providerId: string, leaseId: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (!sameProxy(url, new URL(proxyUrl))) return undefined;
  const prefix = `/${providerId}`;
  if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return undefined;
  if (url.pathname.startsWith(`${prefix}/_lease/`)) return undefined; // already scoped (a nested run keeps its own)
  url.pathname = `${prefix}/_lease/${encodeURIComponent(leaseId)}${url.pathname.slice(prefix.length)}`;
  return url.toString();
}

export interface ChildEnvInput {
  admission: Admission;
  /** --via-proxy: point both base URLs at the proxy, scoped to the lease. */
  viaProxy: boolean;
  env: NodeJS.ProcessEnv;
  client: ApiClient;
  warn: (message: string) => void;
}

export async function childEnv({ admission, viaProxy, env, client, warn }: ChildEnvInput): Promise<NodeJS.ProcessEnv> {
  const { leaseId, providerId } = admission;
  const out: NodeJS.ProcessEnv = { ...env, HEADROOM_LEASE_ID: leaseId };
  if (!viaProxy && !BASE_URL_VARIABLES.some((name) => env[name])) return out;
  let proxyUrl: string | undefined;
  try {
    proxyUrl = (await client.hostInfo()).proxyUrl;
  } catch (error) {
    warn(`headroom: could not ask the host for its proxy address (${(error as Error).message}); base URLs are left as they are.`);
    return out;
  }
  if (proxyUrl === undefined) {
    if (viaProxy) warn("headroom: --via-proxy: this host runs no gating proxy; start it with a proxy port. Base URLs are left as they are.");
    return out;
  }
  if (viaProxy) {
    const scoped = `${proxyUrl}/${providerId}/_lease/${encodeURIComponent(leaseId)}`;
    return { ...out, ANTHROPIC_BASE_URL: scoped, OPENAI_BASE_URL: `${scoped}/v1` };
  }
  for (const name of BASE_URL_VARIABLES) {
    const value = env[name];
    const scoped = value === undefined ? undefined : scopeToLease(value, proxyUrl, providerId, leaseId);
    if (scoped !== undefined) out[name] = scoped;
  }
  return out;
}
