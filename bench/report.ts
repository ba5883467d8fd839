// The Markdown a bench run prints and keeps in bench/last-run.md: the machine it ran on (so a
// figure is never read without its context), one table per section and a line per target.
import { execFileSync } from "node:child_process";
import { cpus, freemem, loadavg, totalmem } from "node:os";
import type { BenchSection } from "./bench-types";
import type { FileOutcome } from "./bench-process";

export interface NamedOutcome {
  name: string;
  outcome: FileOutcome;
}

export interface RunFacts {
  startedAt: Date;
  finishedAt: Date;
  /** Load average (1 min) when the run started: other work on the machine skews every figure. */
  loadBefore: number;
  loadAfter: number;
  filter: string[];
}

export function renderReport(facts: RunFacts, outcomes: NamedOutcome[]): string {
  const lines = [
    "# Headroom benchmarks",
    "",
    ...machineLines(facts).map((line) => `- ${line}`),
    "",
    "Targets come from the issue and are reported, never asserted. Figures from a shared machine are noisy:",
    "read the ratios (contenders interleaved in one process, medians over rounds) before the absolute numbers.",
    "",
  ];
  for (const { name, outcome } of outcomes) {
    if (!outcome.ok) {
      lines.push(`## ${name}: failed`, "", "```", outcome.error, "```", "");
      continue;
    }
    for (const section of outcome.sections) lines.push(...sectionLines(section), "");
  }
  lines.push("## Targets", "", ...outcomes.flatMap(targetLines), "");
  return lines.join("\n");
}

function machineLines(facts: RunFacts): string[] {
  const cores = cpus();
  const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  return [
    `Date: ${facts.startedAt.toISOString()} (took ${((facts.finishedAt.getTime() - facts.startedAt.getTime()) / 1000).toFixed(0)} s)`,
    `Node ${process.version} (V8 ${process.versions.v8}), ${process.platform} ${process.arch}`,
    `CPUs: ${cores.length} × ${cores[0]?.model.trim() ?? "unknown"}; memory ${gib(totalmem())} (${gib(freemem())} free at the end)`,
    `Load average (1 min): ${facts.loadBefore.toFixed(2)} at the start, ${facts.loadAfter.toFixed(2)} at the end`,
    `Commit: ${commit()}`,
    `Benches: ${facts.filter.length > 0 ? `${facts.filter.join(", ")} (filtered)` : "all"}`,
  ];
}

function commit(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "unknown (not a git checkout)";
  }
}

export function currentLoad(): number {
  return loadavg()[0] ?? 0;
}

const cell = (text: string) => text.replaceAll("|", "\\|");

function sectionLines(section: BenchSection): string[] {
  const lines = [`## ${section.title}`, "", "| measured | figure | ratio |", "| --- | --- | --- |"];
  for (const row of section.rows) lines.push(`| ${cell(row.name)} | ${cell(row.value)} | ${cell(row.ratio ?? "")} |`);
  if (section.target) lines.push("", `**Target ${section.target.met ? "met" : "MISSED"}:** ${section.target.text}`);
  if (section.notes?.length) lines.push("", ...section.notes.map((note) => `- ${note}`));
  return lines;
}

function targetLines({ name, outcome }: NamedOutcome): string[] {
  if (!outcome.ok) return [`- ${name}: did not run to the end (see above)`];
  return outcome.sections.map(
    (s) => `- ${s.title}: ${s.target ? `${s.target.met ? "met" : "**MISSED**"} (${s.target.text})` : "no target (context)"}`,
  );
}
