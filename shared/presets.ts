// The providers Headroom knows by name (SPEC §10): a new user picks one instead of looking up
// an upstream URL. `headroom providers add <id>` and the window's `Add <name>` buttons create a
// provider from these; `connect` creates the agent's default one when it is missing.
import { Type } from "@sinclair/typebox";
import { ProviderId, object } from "./fields";

export interface Preset {
  id: string;
  name: string;
  upstream: string;
  limit: number;
  agents: string[];
}

export const PRESETS: readonly Preset[] = [
  { id: "anthropic", name: "Anthropic", upstream: "https://api.anthropic.com", limit: 4, agents: ["Claude Code", "Anthropic SDKs", "opencode", "aider"] },
  { id: "openai", name: "OpenAI", upstream: "https://api.openai.com", limit: 4, agents: ["Codex (API key)", "OpenAI SDKs", "aider"] },
  { id: "chatgpt", name: "ChatGPT (Codex login)", upstream: "https://chatgpt.com/backend-api/codex", limit: 4, agents: ["Codex (ChatGPT login)"] },
  { id: "gemini", name: "Gemini", upstream: "https://generativelanguage.googleapis.com", limit: 4, agents: ["Gemini CLI"] },
  { id: "openrouter", name: "OpenRouter", upstream: "https://openrouter.ai/api", limit: 4, agents: ["opencode", "aider"] },
];

export function presetOf(id: string): Preset | undefined {
  return PRESETS.find((preset) => preset.id === id);
}

// ── agents that `connect` knows ─────────────────────────────────────────────

export const AGENT_IDS = ["claude", "codex", "gemini", "opencode"] as const;
export type ConnectAgent = (typeof AGENT_IDS)[number];

export const AGENT_NAMES: Record<ConnectAgent, string> = {
  claude: "Claude Code",
  codex: "Codex",
  gemini: "Gemini CLI",
  opencode: "opencode",
};

export function isConnectAgent(text: string): text is ConnectAgent {
  return (AGENT_IDS as readonly string[]).includes(text);
}

/** The agent's path parameter: any id-shaped text, so an unknown agent is 404 naming the known ones. */
export const ConnectParams = object({ agent: ProviderId });
export const ConnectBody = object({
  provider: Type.Optional(ProviderId),
  replace: Type.Optional(Type.Boolean()),
  dryRun: Type.Optional(Type.Boolean()),
  login: Type.Optional(Type.Union([Type.Literal("chatgpt"), Type.Literal("api-key")])),
});

export interface ConnectionEntry {
  agent: ConnectAgent;
  name: string;
  installed: boolean;
  connected: boolean;
  provider?: string;
  files: string[];
  /** Something that bypasses or overrides the connection (a project's .env, a Google login). */
  warnings?: string[];
}

interface FileChange {
  path: string;
  /** Changed lines only, `-old` / `+new`, secrets masked. */
  diff: string;
}

export interface ConnectAnswer {
  agent: ConnectAgent;
  files: FileChange[];
  changed: boolean;
  provider?: string;
  /** What the user should know: a profile left alone, a bypassing .env, "needs Headroom running". */
  notes?: string[];
}
