// Issue 27 item 3 and issue 32 item 5: what keeping usage counts and showing agents costs the
// host's event loop. "Before" is rebuilt here as it was: the whole ledger as one usage.json,
// JSON.stringify + writeFileSync on the loop (its stall is the write's own duration, since
// nothing else can run); "after" is the per-hour files, with a setImmediate probe measuring the
// longest gap while one write at the cap is under way. Then GET /agents with 10,000 agents.
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { identify } from "../electron/agents/agent-identity";
import { UsageDays } from "../electron/agents/usage-days";
import { openUsageFiles } from "../electron/agents/usage-files";
import { HOUR_MS, KEEP_HOURS, UsageLedger } from "../electron/agents/usage-ledger";
import type { Clock, TimerHandle } from "../electron/engine/clock";
import { AgentsService } from "../electron/service/agents-service";
import type { BenchSection } from "./bench-types";
import { collectGarbage } from "./heap";
import { formatMb, formatMs } from "./stats";

const NAMES_PER_HOUR = 1_000;
const AGENTS = 10_000;
const STALL_TARGET_MS = 50;

const tokens = (i: number) => ({ input: 100 + i, output: 50 + i, cacheRead: 10_000 + i, cacheWrite: 100 });
const eventOf = (providerId: string, hour: number, i: number) => ({
  providerId,
  agent: `agent-${hour}-${i} · ~/src/project-${i}`,
  model: "claude-sonnet-4-5-20250929",
  project: `~/src/project-${i}`,
  tokens: tokens(i),
});

/** The version-1 payload at its cap: 1,000 series per provider and hour for 192 hours. */
function beforeWrite(dir: string, providers: number): { stallMs: number; bytes: number } {
  const series = [];
  const now = Date.now();
  for (let p = 0; p < providers; p++) {
    for (let hour = 0; hour < KEEP_HOURS; hour++) {
      for (let i = 0; i < NAMES_PER_HOUR; i++) {
        const { agent, model, tokens: counted } = eventOf(`provider-${p}`, hour, i);
        series.push({ hour: now - hour * HOUR_MS, providerId: `provider-${p}`, agent, model, requests: 1, rateLimited: 0, errors: 0, tokens: counted });
      }
    }
  }
  const file = join(dir, "usage.json");
  collectGarbage(); // both sides start from a settled heap: the fill's garbage is not the write's
  const began = performance.now();
  writeFileSync(file, `${JSON.stringify({ schemaVersion: 1, series })}\n`, { mode: 0o600 });
  return { stallMs: performance.now() - began, bytes: statSync(file).size };
}

/** A clock whose one timer the bench fires by hand, so the write starts exactly when measured. */
function manualClock(): Clock & { fire(): void } {
  let pending: (() => void) | undefined;
  return {
    now: () => Date.now(),
    setTimeout: (fn: () => void) => ((pending = fn), 1 as TimerHandle),
    clearTimeout: () => (pending = undefined),
    fire: () => {
      const fn = pending;
      pending = undefined;
      fn?.();
    },
  };
}

async function afterWrite(dir: string, providers: number): Promise<{ stallMs: number; bytes: number; hourBytes: number }> {
  const clock = manualClock();
  const ledger = new UsageLedger();
  const days = new UsageDays();
  const files = openUsageFiles(dir, ledger, days, clock);
  const now = Date.now();
  for (let p = 0; p < providers; p++) {
    for (let hour = KEEP_HOURS - 1; hour >= 0; hour--) {
      for (let i = 0; i < NAMES_PER_HOUR; i++) {
        const event = eventOf(`provider-${p}`, hour, i);
        ledger.add(now - hour * HOUR_MS, event);
        days.add(now - hour * HOUR_MS, event);
      }
    }
  }
  files.changed();
  clock.fire();
  await files.idle();
  // The steady state at the cap: a few answers counted in the current hour, then the 5 s write.
  for (let i = 0; i < 50; i++) ledger.add(now, eventOf("provider-0", 0, i));
  files.changed();
  collectGarbage();
  let longest = 0;
  let last = performance.now();
  let probing = true;
  const probe = () => {
    const at = performance.now();
    longest = Math.max(longest, at - last);
    last = at;
    if (probing) setImmediate(probe);
  };
  setImmediate(probe);
  await new Promise((resolve) => setImmediate(resolve));
  clock.fire();
  await files.idle();
  await new Promise((resolve) => setImmediate(resolve));
  probing = false;
  files.close();
  const folder = join(dir, "usage");
  const sizes = readdirSync(folder).map((name) => statSync(join(folder, name)).size);
  return { stallMs: longest, bytes: sizes.reduce((a, b) => a + b, 0), hourBytes: Math.max(...sizes) };
}

function agentsSnapshot(): { before: { ms: number; bytes: number }; after: { ms: number; bytes: number; shown: number; omitted: number } } {
  const service = new AgentsService({ clock: { now: () => Date.now(), setTimeout: () => 0, clearTimeout: () => {} }, pools: () => [], onChange: () => {}, onTokens: () => {} });
  for (let i = 0; i < AGENTS; i++) {
    const agent = identify({ process: { pid: 10_000 + i, command: "claude", cwd: `/home/dev/src/project-${i}` } });
    void service.acquiring({ providerId: "anthropic", agent }, async () => ({ leaseId: `lease-${i}`, providerId: "anthropic", admittedAt: 0 }));
    service.counted({ providerId: "anthropic", agent, model: "claude-sonnet", outcome: "success", tokens: tokens(i) });
  }
  // Before: every agent seen in the hour went out in each snapshot.
  type Internals = { tracker: { entries: (now: number, pools: [], usage: (p: string, l: string) => unknown) => unknown[] }; ledger: UsageLedger };
  const { tracker, ledger } = service as unknown as Internals;
  let began = performance.now();
  const used = ledger.byAgent(() => Date.now() - 5 * HOUR_MS);
  const all = JSON.stringify({ agents: tracker.entries(Date.now(), [], (p, l) => used.get(`${p}\u0000${l}`)) });
  const beforeMs = performance.now() - began;
  began = performance.now();
  const view = service.agents();
  const shown = JSON.stringify(view);
  const afterMs = performance.now() - began;
  return {
    before: { ms: beforeMs, bytes: Buffer.byteLength(all) },
    after: { ms: afterMs, bytes: Buffer.byteLength(shown), shown: view.agents.length, omitted: view.omitted ?? 0 },
  };
}

export default async function usageFilesBench(): Promise<BenchSection[]> {
  const sections: BenchSection[] = [];
  for (const providers of [1, 3]) {
    const beforeDir = mkdtempSync(join(tmpdir(), "headroom-bench-usage-"));
    const afterDir = mkdtempSync(join(tmpdir(), "headroom-bench-usage-"));
    try {
      const before = beforeWrite(beforeDir, providers);
      rmSync(join(beforeDir, "usage.json"));
      const after = await afterWrite(afterDir, providers);
      sections.push({
        title: `Usage files at the cap: ${NAMES_PER_HOUR.toLocaleString("en")} new names an hour for ${KEEP_HOURS} h, ${providers} provider${providers === 1 ? "" : "s"}`,
        rows: [
          { name: "before: one usage.json, JSON.stringify + writeFileSync", value: `stall ${formatMs(before.stallMs)} · ${formatMb(before.bytes)} on disk` },
          { name: "after: the changed hour files, fs/promises", value: `stall ${formatMs(after.stallMs)} · ${formatMb(after.bytes)} on disk`, ratio: `largest file ${formatMb(after.hourBytes)}` },
        ],
        target: { text: `the longest event-loop stall during a write under ${STALL_TARGET_MS} ms; a few MB on disk`, met: after.stallMs < STALL_TARGET_MS && after.bytes < 4.5 * 1024 * 1024 },
      });
    } finally {
      rmSync(beforeDir, { recursive: true, force: true });
      rmSync(afterDir, { recursive: true, force: true });
    }
  }
  const agents = agentsSnapshot();
  sections.push({
    title: `GET /agents with ${AGENTS.toLocaleString("en")} agents seen in the last hour`,
    rows: [
      { name: "before: every agent in each snapshot", value: `${formatMs(agents.before.ms)} · ${formatMb(agents.before.bytes)}` },
      { name: "after: the 500 seen last, plus omitted", value: `${formatMs(agents.after.ms)} · ${formatMb(agents.after.bytes)}`, ratio: `${agents.after.shown} shown, omitted ${agents.after.omitted}` },
    ],
    notes: ["Snapshot time is building the view and its JSON, as each /events push does."],
  });
  return sections;
}
