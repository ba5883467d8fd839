// Issue 27 item 6: what finding a gated body's `model` costs the proxy's one thread, per
// request. An agent mid-session sends its whole conversation each turn (hundreds of KB); the
// proxy scans the top-level keys (electron/proxy/body-model.ts) where it used to JSON.parse
// every body up to 1 MiB whole. The proxy bench's 83-byte bodies cannot show this.
import type { BenchSection } from "./bench-types";
import { modelOf } from "../electron/proxy/body-model";
import { conversationBody as conversation } from "./conversation-body";

const TARGET_RATIO = 2;

function microsPer(runs: number, run: () => unknown): number {
  for (let i = 0; i < Math.min(runs, 50); i++) run();
  const began = performance.now();
  for (let i = 0; i < runs; i++) run();
  return ((performance.now() - began) * 1_000) / runs;
}

const parsedWhole = (body: Buffer) => (JSON.parse(body.toString("utf8")) as { model?: unknown }).model;

export default function bodyModelBench(): BenchSection[] {
  const bodies = [
    { name: "83-byte body (the proxy bench's)", body: Buffer.from('{"model":"bench-model","max_tokens":16,"messages":[{"role":"user","content":"hi"}]}'), runs: 200_000 },
    { name: "conversation of 40 turns", body: conversation(40), runs: 2_000 },
    { name: "conversation of 200 turns", body: conversation(200), runs: 500 },
  ];
  const rows = [];
  let bigRatio = 0;
  for (const { name, body, runs } of bodies) {
    if (modelOf(body) !== parsedWhole(body)) throw new Error(`${name}: the scan and JSON.parse disagree`);
    const scanned = microsPer(runs, () => modelOf(body));
    const parsed = microsPer(runs, () => parsedWhole(body));
    bigRatio = parsed / scanned;
    const size = body.length >= 1024 ? `${(body.length / 1024).toFixed(0)} KB` : `${body.length} B`;
    rows.push(
      { name: `${name}, ${size}: scanned (body-model.ts)`, value: `${scanned.toFixed(2)} µs` },
      { name: `${name}, ${size}: JSON.parse whole`, value: `${parsed.toFixed(2)} µs`, ratio: `${(parsed / scanned).toFixed(1)}× the scan` },
    );
  }
  return [
    {
      title: "Finding a gated body's model: top-level scan beside JSON.parse of the whole body",
      rows,
      target: { text: `the 200-turn conversation scanned ≥ ${TARGET_RATIO}× faster than parsed whole (this run: ${bigRatio.toFixed(1)}×)`, met: bigRatio >= TARGET_RATIO },
      notes: [
        "Per request, on the proxy's one thread; parsing whole also leaves the body's object tree to the garbage collector.",
        "tests/unit/body-model.test.ts holds the scan to JSON.parse's answer for valid JSON, small and big.",
      ],
    },
  ];
}
