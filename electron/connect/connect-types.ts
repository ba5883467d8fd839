// What every agent's target answers: the files it would change and how, planned in full
// (every file read and parsed) before anything is written, so a refusal leaves nothing half-done.
import type { ConnectAgent } from "../../shared/presets";

export interface ConnectContext {
  /** The environment of the user whose configuration is edited (HOME, CODEX_HOME, …). */
  env: NodeJS.ProcessEnv;
  home: string;
  /** Where Gemini CLI would start looking for a project's .env. */
  cwd: string;
  /** This host's proxy, e.g. http://127.0.0.1:8788. */
  proxyUrl: string;
  /** Base URLs Headroom wrote before (an earlier proxy port): ours, not a gateway's. */
  ownUrls: readonly string[];
  /** `<node> <checkout>/bin/headroom.js` for Claude Code's status line; none in a packaged app. */
  headroomCommand?: string | undefined;
}

export interface ConnectOptions {
  provider?: string;
  replace?: boolean;
  login?: "chatgpt" | "api-key";
}

/** How Headroom's own part of a file is found again to remove it (disconnect after other edits). */
export type Owned =
  | { kind: "json"; paths: string[][]; restore?: { path: string[]; value: unknown }[] }
  | { kind: "env"; names: string[] }
  | { kind: "codex-toml" };

export interface FileEditPlan {
  /** The path as the agent reads it (a symlink stays one; the write goes to its target). */
  path: string;
  before: string | undefined;
  after: string;
  owned: Owned;
}

interface AgentPlan {
  agent: ConnectAgent;
  provider: string;
  baseUrl: string;
  edits: FileEditPlan[];
  notes: string[];
}

interface AgentState {
  connected: boolean;
  provider?: string;
  files: string[];
  warnings: string[];
}

export interface AgentTarget {
  agent: ConnectAgent;
  /** The command found on PATH when the agent is installed. */
  command: string;
  configDir(ctx: ConnectContext): string;
  plan(ctx: ConnectContext, options: ConnectOptions): AgentPlan;
  state(ctx: ConnectContext): AgentState;
}

/** Is this base URL Headroom's (this proxy, or one Headroom wrote before)? */
export function isOurs(ctx: ConnectContext, url: unknown): boolean {
  if (typeof url !== "string") return false;
  return url.startsWith(`${ctx.proxyUrl}/`) || ctx.ownUrls.some((own) => url === own || url.startsWith(`${own}/`));
}

/** The provider a base URL of ours names: its first path segment after the proxy. */
export function providerIn(ctx: ConnectContext, url: unknown): string | undefined {
  if (!isOurs(ctx, url)) return undefined;
  try {
    return new URL(url as string).pathname.split("/")[1] || undefined;
  } catch {
    return undefined;
  }
}
