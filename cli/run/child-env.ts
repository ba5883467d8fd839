// The wrapped command's environment and arguments (SPEC §6 "Lease-scoped requests", "`headroom
// run` finds every base URL"): it learns its lease (HEADROOM_LEASE_ID, and for Claude Code the
// x-headroom-lease line of ANTHROPIC_CUSTOM_HEADERS, SPEC §10), and base URLs pointing
// at this host's proxy for the provider — in the variables agents read and in the flags aider
// takes — are scoped to that lease, so the agent's own requests ride on the slot `headroom run`
// holds instead of queueing behind it (a deadlock at limit 1, two slots per agent above it).
import type { ApiClient } from "../../shared/api-client";
import type { Admission } from "../../shared/types";
import { hasBaseUrlFlag, scopeFlags, scopeToLease, withLeaseHeader } from "./lease-scope";

const BASE_URL_VARIABLES = ["ANTHROPIC_BASE_URL", "OPENAI_BASE_URL", "OPENAI_API_BASE", "GOOGLE_GEMINI_BASE_URL"] as const;

export interface ChildEnvInput {
  admission: Admission;
  /** --via-proxy: point both base URLs at the proxy, scoped to the lease. */
  viaProxy: boolean;
  env: NodeJS.ProcessEnv;
  /** The command and its arguments, as given after `--`. */
  command: [string, ...string[]];
  client: ApiClient;
  warn: (message: string) => void;
}

export interface ChildLaunch {
  env: NodeJS.ProcessEnv;
  command: [string, ...string[]];
}

export async function childEnv({ admission, viaProxy, env, command, client, warn }: ChildEnvInput): Promise<ChildLaunch> {
  const { leaseId, providerId } = admission;
  const out: NodeJS.ProcessEnv = {
    ...env,
    HEADROOM_LEASE_ID: leaseId,
    ANTHROPIC_CUSTOM_HEADERS: withLeaseHeader(env.ANTHROPIC_CUSTOM_HEADERS, leaseId),
  };
  const unchanged = { env: out, command };
  if (!viaProxy && !BASE_URL_VARIABLES.some((name) => env[name]) && !hasBaseUrlFlag(command)) return unchanged;
  let proxyUrl: string | undefined;
  try {
    proxyUrl = (await client.hostInfo()).proxyUrl;
  } catch (error) {
    warn(`headroom: could not ask the host for its proxy address (${(error as Error).message}); base URLs are left as they are.`);
    return unchanged;
  }
  if (proxyUrl === undefined) {
    if (viaProxy) warn("headroom: --via-proxy: this host runs no gating proxy; start it with a proxy port. Base URLs are left as they are.");
    return unchanged;
  }
  const scope = (value: string) => scopeToLease(value, proxyUrl, providerId, leaseId);
  const args = scopeFlags(command, scope);
  if (viaProxy) {
    // Claude Code's form: Anthropic's SDKs add /v1 themselves; OpenAI's base URL includes it.
    const scoped = `${proxyUrl}/${providerId}/_lease/${encodeURIComponent(leaseId)}`;
    return { env: { ...out, ANTHROPIC_BASE_URL: scoped, OPENAI_BASE_URL: `${scoped}/v1` }, command: args };
  }
  for (const name of BASE_URL_VARIABLES) {
    const value = env[name];
    const scoped = value === undefined ? undefined : scope(value);
    if (scoped !== undefined) out[name] = scoped;
  }
  return { env: out, command: args };
}
