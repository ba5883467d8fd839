// `npm run bench [-- name...]`: finds bench/*.bench.ts (files added later join by themselves),
// runs each in its own process in name order, prints the sections as Markdown and keeps the
// whole output in bench/last-run.md for the README to quote. `npm run bench -- engine http`
// runs engine.bench.ts and http.bench.ts only.
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runBenchFile, stopCurrentBench } from "./bench-process";
import { currentLoad, renderReport, type NamedOutcome } from "./report";

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const SUFFIX = ".bench.ts";

function discover(): string[] {
  return readdirSync(BENCH_DIR)
    .filter((file) => file.endsWith(SUFFIX))
    .map((file) => file.slice(0, -SUFFIX.length))
    .sort();
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    stopCurrentBench();
    process.exit(signal === "SIGINT" ? 130 : 143);
  });
}

const filter = process.argv.slice(2);
const available = discover();
const unknown = filter.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  process.stderr.write(`No bench named ${unknown.join(", ")}. Available: ${available.join(", ")}.\n`);
  process.exit(64);
}

const startedAt = new Date();
const loadBefore = currentLoad();
const outcomes: NamedOutcome[] = [];
for (const name of filter.length > 0 ? available.filter((n) => filter.includes(n)) : available) {
  process.stderr.write(`bench: ${name}…\n`);
  const began = performance.now();
  outcomes.push({ name, outcome: await runBenchFile(join(BENCH_DIR, name + SUFFIX)) });
  process.stderr.write(`bench: ${name} done in ${((performance.now() - began) / 1000).toFixed(1)} s\n`);
}

const markdown = renderReport({ startedAt, finishedAt: new Date(), loadBefore, loadAfter: currentLoad(), filter }, outcomes);
process.stdout.write(markdown);
writeFileSync(join(BENCH_DIR, "last-run.md"), markdown);
// A missed target is news, not a failure; a bench that could not run is one.
process.exitCode = outcomes.every(({ outcome }) => outcome.ok) ? 0 : 1;
