// `headroom run` arguments: Headroom's options before `--`, the command after it untouched
// (so the command's own flags are never read as ours).
import { randomUUID } from "node:crypto";
import { basename } from "node:path";
import { checkAcquireBody, type AcquireRequest } from "../../shared/validate";
import { parseCommandArgs, providerIdArg } from "../args";
import { parseDuration } from "../duration";
import { UsageError } from "../exit-codes";

export interface RunOptions {
  acquire: AcquireRequest & { waiterId: string; agentId: string };
  command: [string, ...string[]];
  /** Point ANTHROPIC_BASE_URL and OPENAI_BASE_URL at the proxy, scoped to the run's lease. */
  viaProxy: boolean;
  /** SPEC §8 `--resume`: how often a child stopped by a window is started again (absent: off). */
  maxResumes?: number;
  /** `--resume-command`: run by `sh -c` at every resume instead of the agent's resume form. */
  resumeCommand?: string;
}

/** SPEC §8: `--max-resumes` is 1..20, default 3. */
const MAX_RESUMES = { min: 1, max: 20, default: 3 } as const;

export const RUN_LEASE_TTL_MS = 15_000;

const EXAMPLE = "e.g. headroom run --provider anthropic -- claude";
const FLAG_OF: Record<string, string> = { agentId: "--agent", timeoutMs: "--timeout" };

export function parseRunArgs(argv: string[]): RunOptions {
  const end = argv.indexOf("--");
  const own = end === -1 ? argv : argv.slice(0, end);
  const command = end === -1 ? [] : argv.slice(end + 1);
  const { values, positionals } = parseCommandArgs("run", own, {
    provider: { type: "string", short: "p" },
    agent: { type: "string", short: "a" },
    timeout: { type: "string", short: "t" },
    "via-proxy": { type: "boolean" },
    resume: { type: "boolean" },
    "max-resumes": { type: "string" },
    "resume-command": { type: "string" },
  });
  if (positionals.length > 0) {
    throw new UsageError(`put the command after --, ${EXAMPLE} (got ${JSON.stringify(positionals[0])} before it)`, "run");
  }
  if (values.provider === undefined) throw new UsageError(`--provider is required, ${EXAMPLE}`, "run");
  const [program, ...args] = command;
  if (program === undefined) throw new UsageError(`nothing to run: put the command after --, ${EXAMPLE}`, "run");

  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    timeoutMs = parseDuration(values.timeout);
    if (timeoutMs === undefined) {
      throw new UsageError(
        `--timeout must be a duration such as 500ms, 90s, 5m or 1h (got ${JSON.stringify(values.timeout)})`,
        "run",
      );
    }
  }
  const checked = checkAcquireBody({
    providerId: providerIdArg(values.provider, "run"),
    agentId: values.agent ?? basename(program),
    waiterId: randomUUID(),
    // Short, with a heartbeat every third of it (heartbeat.ts): a wrapper killed with SIGKILL
    // gives its slot back within seconds, not the host's 120 s default (SPEC §3).
    ttlMs: RUN_LEASE_TTL_MS,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  if (!checked.ok) throw new UsageError(`${FLAG_OF[checked.field] ?? checked.field}: ${checked.message}`, "run");
  const { agentId, waiterId } = checked.value;
  return {
    acquire: { ...checked.value, agentId: agentId!, waiterId: waiterId! },
    command: [program, ...args],
    viaProxy: values["via-proxy"] === true,
    ...resumeOptions(values.resume === true, values["max-resumes"], values["resume-command"]),
  };
}

function resumeOptions(resume: boolean, max: string | undefined, command: string | undefined): Pick<RunOptions, "maxResumes" | "resumeCommand"> {
  if (!resume) {
    if (max !== undefined || command !== undefined) {
      throw new UsageError(`${max !== undefined ? "--max-resumes" : "--resume-command"} needs --resume, e.g. headroom run --provider anthropic --resume -- claude -p "…"`, "run");
    }
    return {};
  }
  const { min, max: most } = MAX_RESUMES;
  const maxResumes = max === undefined ? MAX_RESUMES.default : /^\d+$/.test(max) ? Number(max) : NaN;
  if (!(maxResumes >= min && maxResumes <= most)) {
    throw new UsageError(`--max-resumes must be a whole number from ${min} to ${most} (got ${JSON.stringify(max)})`, "run");
  }
  if (command !== undefined && command.trim() === "") throw new UsageError("--resume-command must not be empty", "run");
  return { maxResumes, ...(command === undefined ? {} : { resumeCommand: command }) };
}
