// Runs one bench file in its own Node process: --expose-gc for honest heap figures, and a
// fresh heap and JIT so one file's garbage or warm code does not colour the next file's
// numbers. A file that crashes or overruns becomes a failed entry, not a failed run.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { BenchSection } from "./bench-types";

export type ChildMessage = { kind: "sections"; sections: BenchSection[] } | { kind: "error"; message: string };

export type FileOutcome = { ok: true; sections: BenchSection[] } | { ok: false; error: string };

const CHILD = fileURLToPath(new URL("./bench-child.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FILE_TIME_LIMIT_MS = 10 * 60_000;
const KILL_GRACE_MS = 5_000;

let current: ReturnType<typeof spawn> | undefined;

/** Ctrl-C or a kill of the runner also stops the bench in flight (which stops its servers). */
export function stopCurrentBench(): void {
  current?.kill("SIGTERM");
}

export function runBenchFile(file: string): Promise<FileOutcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", CHILD, file], {
      cwd: ROOT,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    current = child;
    let outcome: FileOutcome | undefined;
    const overrun = setTimeout(() => {
      outcome ??= { ok: false, error: `stopped after ${FILE_TIME_LIMIT_MS / 60_000} minutes` };
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), KILL_GRACE_MS).unref();
    }, FILE_TIME_LIMIT_MS);
    child.on("message", (message: unknown) => {
      outcome ??= toOutcome(message);
    });
    child.on("error", (error) => {
      outcome ??= { ok: false, error: error.message };
    });
    // 'close', not 'exit': it comes after the IPC channel has delivered everything.
    child.on("close", (code, signal) => {
      clearTimeout(overrun);
      current = undefined;
      resolve(outcome ?? { ok: false, error: `exited (${signal ?? `code ${code}`}) without reporting` });
    });
  });
}

function toOutcome(message: unknown): FileOutcome {
  const m = message as Partial<{ kind: string; sections: unknown; message: unknown }>;
  if (m.kind === "sections" && Array.isArray(m.sections) && m.sections.every(isSection)) {
    return { ok: true, sections: m.sections };
  }
  if (m.kind === "error" && typeof m.message === "string") return { ok: false, error: m.message };
  return { ok: false, error: "sent something that is not BenchSection[]" };
}

function isSection(value: unknown): value is BenchSection {
  const s = value as Partial<BenchSection> | null;
  return (
    typeof s === "object" &&
    s !== null &&
    typeof s.title === "string" &&
    Array.isArray(s.rows) &&
    s.rows.every((row) => typeof row?.name === "string" && typeof row.value === "string")
  );
}
