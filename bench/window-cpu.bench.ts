// The window's own CPU while the busy demo runs (issue 10): how much of one core the page's
// main thread is busy (scripts, style, layout, paint), read from Chromium's own task clock
// (CDP Performance.getMetrics, TaskDuration) over a stretch of wall time. The window is the
// production build served by the demo's host; agents, proxy and fake provider run beside it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type CDPSession } from "@playwright/test";
import { build } from "vite";
import { startDemo } from "../demo/demo";
import { CHROMIUM_ARGS, chromiumExecutable } from "../tests/support/chromium";
import type { BenchSection } from "./bench-types";

const WARM_UP_MS = 5_000;
const MEASURE_MS = 20_000;
const TARGET_SHARE = 0.1;

async function taskSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] };
  return metrics.find((metric) => metric.name === "TaskDuration")?.value ?? NaN;
}

export default async function windowCpuBench(): Promise<BenchSection[]> {
  const work = mkdtempSync(join(tmpdir(), "headroom-cpu-bench-"));
  const staticDir = join(work, "window");
  await build({ configFile: join(import.meta.dirname, "..", "vite.config.ts"), logLevel: "silent", build: { outDir: staticDir, emptyOutDir: true } });
  const demo = await startDemo({ port: 0, proxyPort: 0, staticDir, version: "bench", dataDir: join(work, "data"), log: () => undefined });
  const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
  try {
    const shares: { name: string; share: number }[] = [];
    for (const [name, viewport] of [
      ["1280 × 900", { width: 1280, height: 900 }],
      ["1920 × 1080", { width: 1920, height: 1080 }],
    ] as const) {
      const page = await browser.newPage({ viewport });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Performance.enable");
      await page.goto(demo.host.windowUrl);
      await page.getByRole("status").filter({ hasText: "Live" }).waitFor();
      await page.waitForTimeout(WARM_UP_MS);
      const before = await taskSeconds(cdp);
      const started = performance.now();
      await page.waitForTimeout(MEASURE_MS);
      const busy = (await taskSeconds(cdp)) - before;
      shares.push({ name, share: busy / ((performance.now() - started) / 1_000) });
      await page.close();
    }
    const worst = Math.max(...shares.map((s) => s.share));
    return [
      {
        title: `Window: main-thread CPU with the busy demo open (${MEASURE_MS / 1_000} s after ${WARM_UP_MS / 1_000} s warm-up)`,
        rows: shares.map(({ name, share }) => ({ name, value: `${(share * 100).toFixed(1)} % of one core` })),
        target: { text: `≤ ${TARGET_SHARE * 100} % of one core`, met: worst <= TARGET_SHARE },
        notes: [
          "TaskDuration from Chromium's Performance domain: every task on the page's main thread (script, style, layout, paint); headless, software rendering.",
          "The demo: eight agents through the proxy against a fake provider capped at 3, with 429s, a pause, the banner and a route opening and closing.",
        ],
      },
    ];
  } finally {
    await browser.close();
    await demo.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
