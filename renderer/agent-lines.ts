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
  const root = providerBase(providerId, proxyUrl);
  if (isGemini(providerId, upstream)) {
    return [
      { what: "base URL", tools: "Gemini CLI, Google Gen AI SDKs", text: `GOOGLE_GEMINI_BASE_URL=${root}` },
      { what: "Gemini CLI settings", tools: "Gemini CLI (~/.gemini/settings.json)", text: JSON.stringify(GEMINI_SETTINGS) },
    ];
  }
  if (isChatGptCodex(upstream)) return [{ what: "Codex", tools: "Codex on a ChatGPT login", text: codexLine(root, "chatgpt") }];
  const base = baseUrlLine(providerId, upstream, proxyUrl);
  if (isAnthropic(providerId, upstream)) {
    return [
      { what: "base URL", tools: "Claude Code, Anthropic SDKs", text: base },
      { what: "opencode", tools: "opencode (opencode.json)", text: JSON.stringify(opencodeConfig(root)) },
    ];
  }
  const v1 = `${root}/v1`;
  return [
    { what: "base URL", tools: "OpenAI-compatible SDKs", text: base },
    { what: "Codex", tools: "Codex", text: codexLine(v1) },
    { what: "aider", tools: "aider", text: `aider --openai-api-base ${v1}` },
  ];
}

/**
 * Gemini CLI's own auth check needs an auth type in its settings (with only GEMINI_API_KEY it
 * exits 41, "Invalid auth method selected"): `~/.gemini/settings.json` or the project's `.gemini/`.
 */
export const GEMINI_SETTINGS = { security: { auth: { selectedType: "gemini-api-key" } } };

/**
 * opencode's config file entry for an Anthropic provider: its base URL ends in `/v1` (opencode
 * appends `/messages`), and the lease header makes it ride `headroom run`'s slot (empty, and
 * so ignored, outside a run). `autoupdate: false` keeps it from reaching for the network.
 */
function opencodeConfig(providerRoot: string) {
  return {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    provider: {
      anthropic: {
        options: { baseURL: `${providerRoot}/v1`, headers: { "x-headroom-lease": "{env:HEADROOM_LEASE_ID}" } },
      },
    },
  };
}

/**
 * Codex's `-c` overrides for the proxy, as separate arguments (`npm run test:agents` runs them).
 * With an API key the base URL is `<proxy>/<id>/v1`; on a ChatGPT login it is `<proxy>/<id>`
 * (upstream https://chatgpt.com/backend-api/codex) and `requires_openai_auth` makes Codex send
 * its ChatGPT token and account id instead of a key.
 */
export function codexArgs(baseUrl: string, auth: "api-key" | "chatgpt" = "api-key"): string[] {
  const credentials = auth === "chatgpt" ? "requires_openai_auth=true" : `env_key="OPENAI_API_KEY"`;
  const entry = `{name="Headroom",base_url="${baseUrl}",wire_api="responses",${credentials}}`;
  return ["-c", "model_provider=headroom", "-c", `model_providers.headroom=${entry}`];
}

/** The same arguments as one shell line (the entry single-quoted: it holds double quotes). */
export function codexLine(baseUrl: string, auth: "api-key" | "chatgpt" = "api-key"): string {
  const [, provider, , entry] = codexArgs(baseUrl, auth);
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

const isGemini = (providerId: string, upstream: string) => /gemini|google/i.test(providerId) || /generativelanguage|googleapis/i.test(upstream);

const isChatGptCodex = (upstream: string) => /chatgpt\.com\/backend-api\/codex/i.test(upstream);

const isAnthropic = (providerId: string, upstream: string) => /anthropic|claude/i.test(providerId) || /anthropic/i.test(upstream);
