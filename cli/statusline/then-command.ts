// `--then '<command>'`: the status line the user had before `connect` (SPEC §10), run in
// parallel with the same standard input; its output follows Headroom's on the same line and is
// waited for as long as it takes, since it is the user's own and was never ours to cut short.
import { spawn } from "node:child_process";

export interface ThenCommand {
  write(chunk: Buffer): void;
  end(): void;
  /** What it printed, without its final newline; empty when it could not run. */
  output: Promise<string>;
}

export function startThen(command: string): ThenCommand {
  const child = spawn(command, { shell: true, stdio: ["pipe", "pipe", "ignore"] });
  // A command that exits without reading its input must not take us down with EPIPE.
  child.stdin.on("error", () => {});
  const output = new Promise<string>((resolve) => {
    let text = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => (text += chunk));
    child.on("error", () => resolve(""));
    child.on("close", () => resolve(text.replace(/\r?\n$/, "")));
  });
  return {
    write: (chunk) => void child.stdin.write(chunk),
    end: () => child.stdin.end(),
    output,
  };
}
