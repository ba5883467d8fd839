// Issue 7 item 6: how long `headroom --help` takes from spawn to exit, against a bare
// `node -e 0` (the floor any Node command pays) and against the sources run through tsx
// (what bin/headroom.js did before the CLI was bundled). Whole processes, timed from outside,
// taken in turn round by round so all three see the same load.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { buildCli, CLI_BUNDLE } from "../scripts/build-cli.mjs";
import type { BenchSection } from "./bench-types";
import { formatMs, median, spread } from "./stats";

const ROOT = join(import.meta.dirname, "..");
const ROUNDS = 30;
const WARMUP = 3;
const TARGET_EXTRA_MS = 80;

interface Contender {
  name: string;
  argv: string[];
}

const CONTENDERS: Contender[] = [
  { name: "node bin/headroom.js --help (bundle)", argv: [join(ROOT, "bin", "headroom.js"), "--help"] },
  { name: "node -e 0 (bare Node)", argv: ["-e", "0"] },
  { name: "node --import tsx cli/main.ts --help (sources, as before)", argv: ["--import", "tsx", join(ROOT, "cli", "main.ts"), "--help"] },
];

function timeOnce(argv: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child = spawn(process.execPath, argv, { cwd: ROOT, stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(performance.now() - began) : reject(new Error(`${argv.join(" ")} exited ${code}`))));
  });
}

export default async function cliBench(): Promise<BenchSection[]> {
  if (!existsSync(CLI_BUNDLE)) await buildCli();
  const samples = CONTENDERS.map(() => [] as number[]);
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    // Rotate the order each round so no contender always runs right after another.
    for (let k = 0; k < CONTENDERS.length; k++) {
      const index = (round + k) % CONTENDERS.length;
      const took = await timeOnce(CONTENDERS[index]!.argv);
      if (round >= WARMUP) samples[index]!.push(took);
    }
  }
  const [bundle, bare, sources] = samples as [number[], number[], number[]];
  const extra = median(bundle.map((ms, i) => ms - bare[i]!));
  const row = (name: string, runs: number[]) => {
    const { min, max } = spread(runs);
    return { name, value: `median ${formatMs(median(runs))} (${formatMs(min)}–${formatMs(max)})` };
  };
  return [
    {
      title: "CLI start-up: `headroom --help`, spawn to exit",
      rows: [
        { ...row(CONTENDERS[0]!.name, bundle), ratio: `+${formatMs(extra)} over bare Node` },
        row(CONTENDERS[1]!.name, bare),
        { ...row(CONTENDERS[2]!.name, sources), ratio: `+${formatMs(median(sources.map((ms, i) => ms - bare[i]!)))} over bare Node` },
      ],
      target: { text: `bundle within ${TARGET_EXTRA_MS} ms of bare Node (median of per-round differences)`, met: extra <= TARGET_EXTRA_MS },
      notes: [`${ROUNDS} rounds after ${WARMUP} warm-up rounds, order rotated each round.`],
    },
  ];
}
