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
  return isAnthropic(providerId, upstream) ? `ANTHROPIC_BASE_URL=${base}` : `OPENAI_BASE_URL=${base}/v1`;
}

const isAnthropic = (providerId: string, upstream = ""): boolean => /anthropic|claude/i.test(providerId) || /anthropic/i.test(upstream);

/**
 * The `headroom run` form, pasteable as is: a real agent command instead of a placeholder
 * (`<…>` would be a shell redirection), and `npx` as the README runs it from a checkout.
 */
export const runLine = (providerId: string, upstream?: string): string =>
  `npx headroom run --provider ${providerId} -- ${isAnthropic(providerId, upstream) ? "claude" : "codex"}`;

/** First-run lines for each agent SPEC §6 verifies (Codex ignores OPENAI_BASE_URL: it takes `-c`). */
export function setupLines(proxyUrl: string = DEFAULT_PROXY_URL): { agent: string; line: string }[] {
  const base = proxyUrl.replace(/\/+$/, "");
  return [
    { agent: "Claude Code", line: `ANTHROPIC_BASE_URL=${base}/anthropic claude` },
    { agent: "Codex", line: `codex -c openai_base_url=${base}/openai/v1` },
    { agent: "aider", line: `aider --openai-api-base ${base}/openai/v1` },
    { agent: "OpenAI-compatible SDK", line: `OPENAI_BASE_URL=${base}/openai/v1 python your_agent.py` },
  ];
}
