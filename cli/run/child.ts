// Runs the wrapped command. A terminal stays the command's own (interactive agents need it);
// a pipe or file is passed through by us so the tail can be read for a rate-limit marker.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { Readable, Writable } from "node:stream";
import { OutputTail } from "./output-tail";
import { watchChild } from "./watchdog";

interface ChildResult {
  /** The command's exit status; 128 + n when signal n ended it, 126/127 when it did not start. */
  exitCode: number;
  /** What it wrote to pipes (the last 64 KiB of each); empty for terminal output. */
  output: string;
  /** Why it could not start, when it did not. */
  startError?: string;
}

export interface RunningChild {
  forward(signal: NodeJS.Signals): void;
  done: Promise<ChildResult>;
}

// A background process the command left behind may hold its output pipe open for ever; once
// the command itself has exited, wait this long for the pipes to drain, then stop reading.
const DRAIN_AFTER_EXIT_MS = 2000;

function passThrough(from: Readable | null, to: Writable, tail: OutputTail): void {
  if (!from) return;
  from.on("data", (chunk: Buffer) => tail.push(chunk));
  // A reader that leaves early (`headroom run … | head`) must not crash us while the command
  // runs and holds its slot: stop copying, keep reading so the command is not blocked and the
  // tail still fills.
  to.on("error", () => from.unpipe(to));
  from.pipe(to, { end: false });
}

export function startChild([program, ...args]: [string, ...string[]], env: NodeJS.ProcessEnv = process.env): RunningChild {
  const outTail = new OutputTail();
  const errTail = new OutputTail();
  const child = spawn(program, args, {
    env,
    stdio: ["inherit", process.stdout.isTTY ? "inherit" : "pipe", process.stderr.isTTY ? "inherit" : "pipe"],
  });
  // undefined pid: it did not start, and the "error" handler below reports why.
  const watchdog = child.pid === undefined ? undefined : watchChild(child.pid);
  passThrough(child.stdout, process.stdout, outTail);
  passThrough(child.stderr, process.stderr, errTail);

  const done = new Promise<ChildResult>((resolve) => {
    let exitCode: number | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    const finish = (code: number, startError?: string) => {
      clearTimeout(drainTimer);
      resolve({ exitCode: code, output: `${outTail.text()}\n${errTail.text()}`, ...(startError ? { startError } : {}) });
    };
    child.on("error", (error: NodeJS.ErrnoException) => {
      // Only a failed start ends the run here; a failed kill() also emits "error".
      if (child.pid !== undefined) return;
      const missing = error.code === "ENOENT";
      finish(missing ? 127 : 126, missing ? `command not found: ${program}` : `cannot run ${program}: ${error.message}`);
    });
    child.on("exit", (code, signal) => {
      watchdog?.stop();
      exitCode = code ?? 128 + (signal ? constants.signals[signal] : 0);
      drainTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(exitCode!);
      }, DRAIN_AFTER_EXIT_MS);
    });
    child.on("close", () => {
      if (exitCode !== undefined) finish(exitCode);
    });
  });

  return {
    forward(signal) {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) child.kill(signal);
    },
    done,
  };
}
