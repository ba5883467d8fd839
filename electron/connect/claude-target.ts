// Claude Code: `env.ANTHROPIC_BASE_URL` in settings.json (~/.claude, or $CLAUDE_CONFIG_DIR).
import path from "node:path";
import { readConfig } from "./config-file";
import { refuseOtherUrl } from "./conflict";
import { providerIn, isOurs, type AgentTarget, type ConnectContext } from "./connect-types";
import { statusLineKeys, statusLineState, type ClaudeKey } from "./claude-status-line";
import { parseJson, setJson, valueAt, type JsonPath } from "./json-edit";

const CLAUDE = "Claude Code";
const BASE_URL: JsonPath = ["env", "ANTHROPIC_BASE_URL"];

function settingsFile(ctx: ConnectContext): string {
  return path.join(claudeTarget.configDir(ctx), "settings.json");
}

/**
 * The keys `connect claude` sets, each with its value: the base URL, and the status line
 * (SPEC §10). `disconnect` removes whatever is listed, or puts back a key's `previous` value.
 */
type ClaudeKeys = (ctx: ConnectContext, provider: string, current: Record<string, unknown>) => ClaudeKey[];

const claudeKeys: ClaudeKeys[] = [
  (ctx, provider) => [{ path: BASE_URL, value: `${ctx.proxyUrl}/${provider}` }],
  (ctx, provider, current) => statusLineKeys(ctx.headroomCommand, provider, current.statusLine),
];

export const claudeTarget: AgentTarget = {
  agent: "claude",
  command: "claude",
  configDir: (ctx) => ctx.env.CLAUDE_CONFIG_DIR || path.join(ctx.home, ".claude"),
  plan(ctx, options) {
    const file = settingsFile(ctx);
    const before = readConfig(file);
    const current = parseJson(file, before, CLAUDE);
    refuseOtherUrl(ctx, file, "env.ANTHROPIC_BASE_URL", valueAt(current, BASE_URL), options.replace);
    const provider = options.provider ?? "anthropic";
    const keys = claudeKeys.flatMap((keysOf) => keysOf(ctx, provider, current));
    let after = before ?? "";
    for (const key of keys) {
      // Unchanged values are not rewritten: connecting twice changes nothing.
      if (JSON.stringify(valueAt(current, key.path)) !== JSON.stringify(key.value)) after = setJson(after, key.path, key.value);
    }
    const restore = keys.filter((key) => key.previous !== undefined).map((key) => ({ path: key.path.map(String), value: key.previous }));
    return {
      agent: "claude",
      provider,
      baseUrl: `${ctx.proxyUrl}/${provider}`,
      edits: [
        {
          path: file,
          before,
          after,
          owned: {
            kind: "json",
            paths: keys.map((key) => key.path.map(String)),
            ...(restore.length > 0 ? { restore } : {}),
          },
        },
      ],
      notes: [],
    };
  },
  state(ctx) {
    const file = settingsFile(ctx);
    let url: unknown;
    try {
      url = valueAt(parseJson(file, readConfig(file), CLAUDE), BASE_URL);
    } catch {
      url = undefined;
    }
    const provider = providerIn(ctx, url);
    return { connected: isOurs(ctx, url), ...(provider ? { provider } : {}), files: [file], warnings: [] };
  },
};

/** settings.json's status line: Headroom's (with its command) or not; undefined when the file does not parse. */
export function claudeStatusLine(ctx: ConnectContext): ReturnType<typeof statusLineState> | undefined {
  const file = settingsFile(ctx);
  try {
    return statusLineState(parseJson(file, readConfig(file), CLAUDE).statusLine);
  } catch {
    return undefined;
  }
}
