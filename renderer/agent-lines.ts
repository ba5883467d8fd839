// What an agent needs to go through the gating proxy (SPEC §6).
import { DEFAULT_PORTS } from "../shared/limits";

/** Where the proxy listens when the host does not say (SPEC §5 default). */
export const DEFAULT_PROXY_URL = `http://127.0.0.1:${DEFAULT_PORTS.proxy}`;

/**
 * Anthropic's SDKs (Claude Code among them) read ANTHROPIC_BASE_URL and add `/v1` themselves;
 * everything else speaks OpenAI's API, whose base URL includes `/v1`. A provider is taken for
 * Anthropic when its id or its upstream says so (a provider named `claude` included).
 */
export function baseUrlLine(providerId: string, upstream: string, proxyUrl: string = DEFAULT_PROXY_URL): string {
  const base = `${proxyUrl.replace(/\/+$/, "")}/${providerId}`;
  const anthropic = /anthropic|claude/i.test(providerId) || /anthropic/i.test(upstream);
  return anthropic ? `ANTHROPIC_BASE_URL=${base}` : `OPENAI_BASE_URL=${base}/v1`;
}

export const runLine = (providerId: string): string => `headroom run --provider ${providerId} -- <your agent command>`;
