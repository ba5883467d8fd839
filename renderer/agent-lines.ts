// What an agent needs to go through the gating proxy (SPEC §6 "Agent setup lines"): the lines
// here are the ones `npm run test:agents` runs against the real CLIs.
import { DEFAULT_PORTS } from "../shared/limits";

/** Where the proxy listens when the host does not say (SPEC §5 default). */
export const DEFAULT_PROXY_URL = `http://127.0.0.1:${DEFAULT_PORTS.proxy}`;

export interface SetupLine {
  /** Who the line is for, as the copy button names it: "Copy <what> line for <provider>". */
  what: string;
  /** The tools that take it, shown beside the line. */
  tools: string;
  text: string;
}

/**
 * Anthropic's SDKs (Claude Code among them) read ANTHROPIC_BASE_URL and add `/v1` themselves;
 * everything else speaks OpenAI's API, whose base URL includes `/v1`. A provider is taken for
 * Anthropic when its id or its upstream says so (a provider named `claude` included).
 */
export function baseUrlLine(providerId: string, upstream: string, proxyUrl: string = DEFAULT_PROXY_URL): string {
  const base = providerBase(providerId, proxyUrl);
  return isAnthropic(providerId, upstream) ? `ANTHROPIC_BASE_URL=${base}` : `OPENAI_BASE_URL=${base}/v1`;
}

/**
 * Every line for the provider. Codex ignores OPENAI_BASE_URL (it would bypass Headroom), so it
 * gets a provider entry of its own: `wire_api = "responses"` over plain HTTP, which avoids the
 * WebSocket Codex tries first with `openai_base_url`.
 */
export function setupLines(providerId: string, upstream: string, proxyUrl: string = DEFAULT_PROXY_URL): SetupLine[] {
  const base = baseUrlLine(providerId, upstream, proxyUrl);
  if (isAnthropic(providerId, upstream)) return [{ what: "base URL", tools: "Claude Code, Anthropic SDKs", text: base }];
  const v1 = `${providerBase(providerId, proxyUrl)}/v1`;
  return [
    { what: "base URL", tools: "OpenAI-compatible SDKs", text: base },
    { what: "Codex", tools: "Codex", text: codexLine(v1) },
    { what: "aider", tools: "aider", text: `aider --openai-api-base ${v1}` },
  ];
}

/** Codex's `-c` overrides for the proxy, as separate arguments (`npm run test:agents` runs them). */
export function codexArgs(v1Url: string): string[] {
  const entry = `{name="Headroom",base_url="${v1Url}",wire_api="responses",env_key="OPENAI_API_KEY"}`;
  return ["-c", "model_provider=headroom", "-c", `model_providers.headroom=${entry}`];
}

/** The same arguments as one shell line (the entry single-quoted: it holds double quotes). */
export function codexLine(v1Url: string): string {
  const [, provider, , entry] = codexArgs(v1Url);
  return `codex -c ${provider} -c '${entry}'`;
}

/**
 * The `headroom run` form, pasteable as is: a real agent command instead of a placeholder
 * (`<…>` would be a shell redirection), and `npx` as the README runs it from a checkout.
 */
export const runLine = (providerId: string, upstream = ""): string =>
  `npx headroom run --provider ${providerId} -- ${isAnthropic(providerId, upstream) ? "claude" : "codex"}`;

/** The empty window's first step: one line per agent, for providers named anthropic and openai. */
export function firstRunLines(proxyUrl: string = DEFAULT_PROXY_URL): { agent: string; line: string }[] {
  const base = proxyUrl.replace(/\/+$/, "");
  return [
    { agent: "Claude Code", line: `ANTHROPIC_BASE_URL=${base}/anthropic claude` },
    { agent: "Codex", line: codexLine(`${base}/openai/v1`) },
    { agent: "aider", line: `aider --openai-api-base ${base}/openai/v1` },
    { agent: "OpenAI-compatible SDK", line: `OPENAI_BASE_URL=${base}/openai/v1 python your_agent.py` },
  ];
}

const providerBase = (providerId: string, proxyUrl: string) => `${proxyUrl.replace(/\/+$/, "")}/${providerId}`;

const isAnthropic = (providerId: string, upstream: string) => /anthropic|claude/i.test(providerId) || /anthropic/i.test(upstream);
