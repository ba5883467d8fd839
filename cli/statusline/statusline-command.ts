// `headroom statusline [--provider <id>] [--then '<command>']`, for Claude Code's `statusLine`
// setting (SPEC §10): reads the JSON Claude Code writes to its input, posts its rate limits to
// the host as window readings, and prints one line with the provider's state. It runs on every
// render of Claude Code's prompt, so it never holds Claude Code up: whatever happens (no host, a
// port that never answers, input it does not understand) it prints within its budget and exits 0.
// It sends the token only to the host the data folder's lock names as running, never to
// whatever listens on the default port.
import { performance } from "node:perf_hooks";
import type { Command } from "../command";
import { resolveDataDir } from "../../electron/data-folder/data-dir";
import { runningHostUrl } from "../../electron/data-folder/host-record";
import { readToken } from "../../electron/data-folder/token-file";
import { claudeWindows } from "./claude-input";
import { askHost, type HostAnswer } from "./host-call";
import { statusLineText } from "./status-line-text";
import { startThen, type ThenCommand } from "./then-command";

/** From the process's start: SPEC §10's 300 ms, less a margin for writing and exiting. */
const BUDGET_MS = 250;
/** HEADROOM_STATUSLINE_MS: another budget, for a slow machine (and for tests on a loaded one). */
function budgetMs(env: NodeJS.ProcessEnv): number {
  const given = Number(env.HEADROOM_STATUSLINE_MS);
  return Number.isInteger(given) && given > 0 && given <= 60_000 ? given : BUDGET_MS;
}
/** Even when Node itself started slowly (a loaded machine), the host gets this long to answer. */
const MIN_WAIT_MS = 100;
/** Claude Code's input is a few KiB; more is not its input and is not kept. */
const MAX_INPUT_BYTES = 1024 * 1024;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

interface Options {
  provider?: string | undefined;
  then?: string | undefined;
}

/** Lenient on purpose: a status line that exits non-zero or prints usage shows nothing useful. */
function parseOptions(argv: string[]): Options {
  const options: Options = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === "--provider" || flag === "-p") options.provider = value();
    else if (flag === "--then") options.then = value();
  }
  return options;
}

/** The provider ANTHROPIC_BASE_URL points at on a local proxy (`http://127.0.0.1:7412/anthropic`). */
function providerOfBaseUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    const first = url.pathname.split("/").find((segment) => segment !== "");
    return LOOPBACK.has(url.hostname) && first !== undefined ? decodeURIComponent(first) : undefined;
  } catch {
    return undefined;
  }
}

function readInput(signal: AbortSignal, then: ThenCommand | undefined): Promise<string> {
  const stdin = process.stdin;
  // Run by hand on a terminal: there is no Claude Code input to wait for.
  if (stdin.isTTY) return Promise.resolve("");
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      signal.removeEventListener("abort", done);
      stdin.removeAllListeners("data");
      resolve(size <= MAX_INPUT_BYTES ? Buffer.concat(chunks).toString("utf8") : "");
    };
    stdin.on("data", (chunk: Buffer) => {
      then?.write(chunk);
      size += chunk.length;
      if (size <= MAX_INPUT_BYTES) chunks.push(chunk);
    });
    stdin.once("end", done);
    stdin.once("error", done);
    signal.addEventListener("abort", done, { once: true });
  });
}

function answerText(answer: HostAnswer, providerId: string): string {
  switch (answer.kind) {
    case "entry":
      return statusLineText(answer.entry, Date.now());
    case "refused-token":
      return "Headroom: token refused";
    case "unknown-provider":
      return `Headroom: no provider ${providerId}`;
    case "no-answer":
      return "Headroom: no answer";
    case "unreachable":
      return "Headroom not running";
    case "odd":
      return `Headroom: unexpected answer (HTTP ${answer.status})`;
  }
}

async function headroomText(options: Options, input: string, signal: AbortSignal, env: NodeJS.ProcessEnv): Promise<string> {
  const dataDir = resolveDataDir(undefined, env);
  const url = runningHostUrl(dataDir);
  if (url === undefined) return "Headroom not running";
  const token = readToken(dataDir, env);
  if (token === undefined) return "Headroom: no token (set HEADROOM_TOKEN)";
  const providerId = options.provider ?? providerOfBaseUrl(env.ANTHROPIC_BASE_URL) ?? "anthropic";
  const answer = await askHost({ url, token, providerId, windows: claudeWindows(input), signal });
  return answerText(answer, providerId);
}

export async function statusline(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const options = parseOptions(argv);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), Math.max(MIN_WAIT_MS, budgetMs(env) - performance.now()));
  let then: ThenCommand | undefined;
  let text: string;
  try {
    then = options.then ? startThen(options.then) : undefined;
    const input = await readInput(deadline.signal, then);
    text = await headroomText(options, input, deadline.signal, env);
  } catch {
    text = "Headroom: unavailable";
  } finally {
    clearTimeout(timer);
    then?.end();
    // Input that never ends must not keep us running once the line is out.
    process.stdin.destroy();
  }
  const theirs = then ? await then.output : "";
  process.stdout.write(`${text}${theirs ? ` ${theirs}` : ""}\n`);
  return 0;
}

export const statuslineCommand: Command = (argv) => statusline(argv, process.env);
