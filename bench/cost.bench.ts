// Issue 30: what pricing one counted answer costs the proxy. Each answer is priced as it ends
// (electron/agents/prices.ts): a rate card per (family, model), looked up once in
// @pydantic/genai-prices' bundled data, then four multiplications. Measured against calling the
// library's `calcPrice` per answer, which the rate card replaces. Pure CPU, one thread.
import { calcPrice } from "@pydantic/genai-prices";
import type { BenchSection } from "./bench-types";
import { libraryUsage, PriceBook, type PriceFamily } from "../electron/agents/prices";

const ANSWERS = 200_000;
const LIBRARY_ANSWERS = 5_000;
const TARGET_US = 5;

const MIX: readonly (readonly [PriceFamily, string, string | undefined])[] = [
  ["anthropic", "claude-sonnet-4-5-20250929", "anthropic"],
  ["anthropic", "claude-haiku-4-5", "anthropic"],
  ["openai", "gpt-5", "openai"],
  ["google", "gemini-2.5-pro", "google"],
  ["openrouter", "anthropic/claude-sonnet-4.5", "openrouter"],
  ["other", "house-model-7b", undefined], // unpriced: the looked-up miss is cached too
];
const tokens = (i: number) => ({ input: 1_000 + (i % 500), output: 300 + (i % 97), cacheRead: 40_000, cacheWrite: i % 7 === 0 ? 2_000 : 0 });

function microsPer(count: number, run: (i: number) => void): number {
  for (let i = 0; i < Math.min(count, 2_000); i++) run(i); // warm
  const began = performance.now();
  for (let i = 0; i < count; i++) run(i);
  return ((performance.now() - began) * 1_000) / count;
}

export default function costBench(): BenchSection[] {
  const book = new PriceBook();
  const lookUpBegan = performance.now();
  for (const [family, model] of MIX) book.price(family, model, tokens(0), Date.now());
  const lookUpMs = (performance.now() - lookUpBegan) / MIX.length;
  let sink = 0;
  const ours = microsPer(ANSWERS, (i) => {
    const [family, model] = MIX[i % MIX.length]!;
    sink += book.price(family, model, tokens(i), Date.now()).costUsd;
  });
  const library = microsPer(LIBRARY_ANSWERS, (i) => {
    const [, model, providerId] = MIX[i % MIX.length]!;
    sink += calcPrice(libraryUsage(tokens(i)), model, providerId === undefined ? {} : { providerId })?.total_price ?? 0;
  });
  if (!Number.isFinite(sink)) throw new Error("prices went wrong");
  return [
    {
      title: `Pricing one answer: ${ANSWERS.toLocaleString("en")} answers over ${MIX.length} models (Anthropic, OpenAI, Google, OpenRouter, one unpriced)`,
      rows: [
        { name: "headroom rate card (prices.ts)", value: `${ours.toFixed(2)} µs per answer` },
        { name: "@pydantic/genai-prices calcPrice per answer", value: `${library.toFixed(1)} µs per answer`, ratio: `${(library / ours).toFixed(0)}× the rate card` },
        { name: "first answer of a model (the lookup, once)", value: `${lookUpMs.toFixed(2)} ms` },
      ],
      target: { text: `≤ ${TARGET_US} µs per priced answer (this run: ${ours.toFixed(2)} µs)`, met: ours <= TARGET_US },
      notes: [
        "The rate card is held equal to calcPrice for every fixed-price Anthropic, OpenAI and Google model by tests/unit/prices.test.ts.",
        "A proxied answer takes milliseconds end to end; a few µs of pricing is below what bench/proxy.bench.ts can resolve.",
      ],
    },
  ];
}
