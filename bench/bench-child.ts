// The child side of bench/run.ts: runs one bench file's default export in a process of its
// own (started with --expose-gc) and sends the sections home over the IPC channel.
import { pathToFileURL } from "node:url";
import type { BenchSection } from "./bench-types";
import type { ChildMessage } from "./bench-process";

// A signal must still run the 'exit' hooks that take down servers a bench spawned.
process.once("SIGINT", () => process.exit(130));
process.once("SIGTERM", () => process.exit(143));

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) throw new Error("bench-child.ts runs under bench/run.ts, which opens an IPC channel");
    process.send(message, () => resolve());
  });
}

async function runFile(file: string): Promise<BenchSection[]> {
  const loaded = (await import(pathToFileURL(file).href)) as { default?: unknown };
  if (typeof loaded.default !== "function") throw new Error(`${file} has no default export returning BenchSection[]`);
  return (await loaded.default()) as BenchSection[];
}

const file = process.argv[2] ?? "";
try {
  await send({ kind: "sections", sections: await runFile(file) });
} catch (error) {
  await send({ kind: "error", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}
// Explicitly: a library under test may leave timers behind (Bottleneck does).
process.exit(0);
