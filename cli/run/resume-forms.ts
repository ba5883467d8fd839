// How `headroom run --resume` starts a command again after a window's reset (SPEC §8): each
// agent's own resume form, built from the original arguments. Claude Code in print mode gets a
// session id of ours the first time, so its resume names its own conversation (two agents in
// one folder never share one); Codex's `exec` resumes the session its output named, else the
// last; anything else runs again as it was, and `--resume-command` replaces them all.
import { randomUUID } from "node:crypto";
import { basename } from "node:path";

type Command = [string, ...string[]];

export interface ResumePlan {
  /** What runs the first time (Claude Code with `--session-id` added). */
  first: Command;
  /** What runs at each resume, given what the last run printed. */
  next(output: string): Command;
}

const CLAUDE_SESSION_FLAGS = ["--session-id", "--resume", "-r", "--continue", "-c"];
const CODEX_SESSION = /session id:\s*([0-9a-f-]{8,})/i;

const programOf = (command: Command) => basename(command[0]).replace(/\.(cmd|exe)$/i, "");
const flagValue = (args: string[], flag: string): string | undefined => {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === flag) return args[i + 1];
    if (args[i]!.startsWith(`${flag}=`)) return args[i]!.slice(flag.length + 1);
  }
  return undefined;
};
const withoutFlag = (args: string[], flag: string): string[] =>
  args.filter((arg, i) => arg !== flag && args[i - 1] !== flag && !arg.startsWith(`${flag}=`));

function claudePlan(command: Command): ResumePlan | undefined {
  const args = command.slice(1);
  if (!args.includes("-p") && !args.includes("--print")) return undefined;
  const given = flagValue(args, "--session-id");
  // The user chose how the session goes (resume, continue): their id, or none of ours to add.
  if (given === undefined && CLAUDE_SESSION_FLAGS.some((flag) => flagValue(args, flag) !== undefined || args.includes(flag))) return undefined;
  const sessionId = given ?? randomUUID();
  const first: Command = given === undefined ? [command[0], "--session-id", sessionId, ...args] : command;
  return { first, next: () => [command[0], "--resume", sessionId, ...withoutFlag(args, "--session-id")] };
}

function codexPlan(command: Command): ResumePlan | undefined {
  const args = command.slice(1);
  const exec = args.findIndex((arg) => arg === "exec" || arg === "e");
  if (exec === -1 || args.slice(exec + 1).includes("resume")) return undefined;
  return {
    first: command,
    next(output) {
      const session = CODEX_SESSION.exec(output)?.[1];
      const target = session === undefined ? ["--last"] : [session];
      const rest = args.slice(exec + 1);
      const last = rest.at(-1);
      // `codex exec [options] resume <session id | --last> <prompt>`: the prompt stays last.
      const prompt = last !== undefined && !last.startsWith("-") && rest.length > 0 ? [last] : [];
      const options = prompt.length > 0 ? rest.slice(0, -1) : rest;
      return [command[0], ...args.slice(0, exec + 1), ...options, "resume", ...target, ...prompt];
    },
  };
}

export function resumePlan(command: Command, resumeCommand: string | undefined): ResumePlan {
  const program = programOf(command);
  const own = program === "claude" ? claudePlan(command) : program === "codex" ? codexPlan(command) : undefined;
  const plan = own ?? { first: command, next: () => command };
  if (resumeCommand === undefined) return plan;
  return { first: plan.first, next: () => ["sh", "-c", resumeCommand] };
}
