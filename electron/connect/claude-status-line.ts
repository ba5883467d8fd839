// Claude Code's `statusLine` as `connect claude` installs it (SPEC §10): `headroom statusline`
// run by absolute path, with the status line the user had kept as `--then '<their command>'`,
// and given back to them by `disconnect`. A command that already runs `headroom statusline`
// (ours from an earlier connect, or typed by hand) is ours: it is rewritten, never chained.
import type { JsonPath } from "./json-edit";
import { shellWord } from "./headroom-command";

/** One key `connect claude` sets; `previous` is what `disconnect` puts back instead of removing it. */
export interface ClaudeKey {
  path: JsonPath;
  value: unknown;
  previous?: unknown;
}

const OURS = /(?:^|[\s/'"])headroom(?:\.js)?'?\s+statusline(?:\s|$)/;
const THEN = / --then '((?:[^']|'\\'')*)'$/;

export function statusLineCommand(headroom: string, provider: string, then?: string): string {
  return `${headroom} statusline --provider ${shellWord(provider)}${then ? ` --then ${`'${then.replace(/'/g, `'\\''`)}'`}` : ""}`;
}

/** For a command that runs `headroom statusline`: the user's own command it chains, if any. */
export function ownStatusLine(command: unknown): { then?: string } | undefined {
  if (typeof command !== "string" || !OURS.test(command)) return undefined;
  const then = THEN.exec(command)?.[1]?.replace(/'\\''/g, "'");
  return then ? { then } : {};
}

const commandOf = (statusLine: unknown): unknown =>
  typeof statusLine === "object" && statusLine !== null && !Array.isArray(statusLine) ? (statusLine as Record<string, unknown>).command : undefined;

/** The statusLine key to set, given settings.json's current `statusLine`; none when it is not a command we can chain. */
export function statusLineKeys(headroom: string | undefined, provider: string, current: unknown): ClaudeKey[] {
  if (headroom === undefined) return [];
  if (current === undefined) return [{ path: ["statusLine"], value: { type: "command", command: statusLineCommand(headroom, provider) } }];
  const command = commandOf(current);
  if (typeof command !== "string") return [];
  const ours = ownStatusLine(command);
  const theirs = ours ? ours.then : command;
  if (theirs === undefined) return [{ path: ["statusLine"], value: { ...(current as object), type: "command", command: statusLineCommand(headroom, provider) } }];
  // Only the command changes: the user's padding and anything else in the object stay.
  return [{ path: ["statusLine", "command"], value: statusLineCommand(headroom, provider, theirs), previous: theirs }];
}

/** What doctor says of Claude Code's status line, given settings.json's `statusLine`. */
export function statusLineState(current: unknown): { installed: false } | { installed: true; command: string } {
  const command = commandOf(current);
  return typeof command === "string" && ownStatusLine(command) ? { installed: true, command } : { installed: false };
}
