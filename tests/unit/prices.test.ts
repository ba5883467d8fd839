// What an answer costs (SPEC §9 "What it cost"), against @pydantic/genai-prices' bundled data
// and against hand computations from the vendors' published per-million prices.
import { calcPrice, findProvider } from "@pydantic/genai-prices";
import { expect, test } from "vitest";
import { libraryUsage, PriceBook, priceAt, priceFamily } from "../../electron/agents/prices";
import type { TokenCounts } from "../../shared/agents";

const at = Date.UTC(2025, 10, 1);
const tokens = (input: number, output: number, cacheRead = 0, cacheWrite = 0): TokenCounts => ({ input, output, cacheRead, cacheWrite });
const cents = (usd: number) => Math.round(usd * 1e8) / 1e8;

test("Anthropic: input, output, cache reads and cache writes each at their own price", () => {
  // claude-sonnet-4-5, published per million: input $3, output $15, cache read $0.30, 5-min cache write $3.75.
  // 2,000 input × 3 + 50,000 cache read × 0.30 + 10,000 cache write × 3.75 + 1,500 output × 15
  //   = 6,000 + 15,000 + 37,500 + 22,500 = 81,000 micro-dollars = $0.081
  const cost = new PriceBook().price("anthropic", "claude-sonnet-4-5-20250929", tokens(2_000, 1_500, 50_000, 10_000), at);
  expect(cost.unpriced).toBe(false);
  expect(cents(cost.costUsd)).toBe(0.081);
});

test("Anthropic's long context: past 200k input tokens the whole answer is priced at the higher tier", () => {
  // claude-sonnet-4-5 over 200k: input $6, output $22.50, cache read $0.60 per million.
  // 150,000 input × 6 + 60,000 cache read × 0.60 + 1,000 output × 22.5 = 900,000 + 36,000 + 22,500 = $0.9585
  // (210,000 in all: cache reads count towards the tier, as the library's input_tokens includes them)
  const cost = new PriceBook().price("anthropic", "claude-sonnet-4-5", tokens(150_000, 1_000, 60_000), at);
  expect(cents(cost.costUsd)).toBe(0.9585);
});

test("OpenAI: cached input at its price, reasoning inside output", () => {
  // gpt-5: input $1.25, cached input $0.125, output $10 per million. Output 3,000 of which 2,000 reasoning.
  // 8,000 × 1.25 + 4,000 × 0.125 + 3,000 × 10 = 10,000 + 500 + 30,000 = $0.0405
  const cost = new PriceBook().price("openai", "gpt-5", tokens(8_000, 3_000, 4_000), at);
  expect(cents(cost.costUsd)).toBe(0.0405);
});

test("Google: cached content and thoughts, and the long-context tier of gemini-2.5-pro", () => {
  // gemini-2.5-pro ≤200k: input $1.25, cache read $0.125, output $10 (thoughts included) per million.
  // 10,000 × 1.25 + 20,000 × 0.125 + 4,000 × 10 = 12,500 + 2,500 + 40,000 = $0.055
  const book = new PriceBook();
  expect(cents(book.price("google", "gemini-2.5-pro", tokens(10_000, 4_000, 20_000), at).costUsd)).toBe(0.055);
  // >200k: input $2.50, output $15. 250,000 × 2.5 + 1,000 × 15 = 625,000 + 15,000 = $0.64
  expect(cents(book.price("google", "gemini-2.5-pro", tokens(250_000, 1_000), at).costUsd)).toBe(0.64);
});

test("OpenRouter names: its own vendor/model list, and a dashed name it lacks found at the vendor", () => {
  const book = new PriceBook();
  // $3 in, $15 out: 1,000 × 3 + 100 × 15 = 4,500 micro-dollars
  expect(cents(book.price("openrouter", "anthropic/claude-sonnet-4.5", tokens(1_000, 100), at).costUsd)).toBe(0.0045);
  expect(cents(book.price("openrouter", "anthropic/claude-sonnet-4-5", tokens(1_000, 100), at).costUsd)).toBe(0.0045);
  // An OpenAI-compatible gateway elsewhere: the name says whose model it is.
  expect(cents(book.price("other", "anthropic/claude-haiku-4-5", tokens(1_000, 100), at).costUsd)).toBe(0.0015);
  expect(cents(book.price("other", "gpt-5", tokens(1_000, 100), at).costUsd)).toBe(0.00225);
});

test("a model the library lacks counts as unpriced, at no cost", () => {
  const book = new PriceBook();
  expect(book.price("openai", "house-model-7b", tokens(1_000, 100), at)).toEqual({ costUsd: 0, unpriced: true });
  expect(book.price("other", "unknown", tokens(1_000, 100), at)).toEqual({ costUsd: 0, unpriced: true });
  expect(book.price("openrouter", "acme/nothing-like-it", tokens(1_000, 100), at)).toEqual({ costUsd: 0, unpriced: true });
});

test("the family comes from the presets' hosts, else from the path's format", () => {
  expect(priceFamily("api.anthropic.com", "anthropic")).toBe("anthropic");
  expect(priceFamily("chatgpt.com", "openai")).toBe("openai");
  expect(priceFamily("api.openai.com:443", "openai")).toBe("openai");
  expect(priceFamily("generativelanguage.googleapis.com", "google")).toBe("google");
  expect(priceFamily("openrouter.ai", "openai")).toBe("openrouter");
  expect(priceFamily("127.0.0.1:8080", "anthropic")).toBe("anthropic");
  expect(priceFamily("gateway.internal", "openai")).toBe("other");
  expect(priceFamily(undefined, "google")).toBe("google");
});

test("the cached rate card prices exactly as the library does, for every fixed-price model of the three families", () => {
  const samples = [tokens(1_234, 567, 8_900, 1_011), tokens(150_000, 2_000, 60_000, 10_000), tokens(0, 10), tokens(300_000, 40_000)];
  let checked = 0;
  for (const providerId of ["anthropic", "openai", "google"]) {
    for (const model of findProvider({ providerId })!.models) {
      if (Array.isArray(model.prices)) continue;
      const provider = { ...findProvider({ providerId })!, models: [model] };
      for (const usage of samples) {
        let expected: number | undefined;
        try {
          expected = calcPrice(libraryUsage(usage), model.id, { provider, timestamp: new Date(at) })?.total_price;
        } catch {
          continue; // priced by units Headroom does not count (audio, images, seconds)
        }
        if (expected === undefined) continue;
        expect(priceAt(model.prices, usage), `${providerId} ${model.id}`).toBeCloseTo(expected, 12);
        checked++;
      }
    }
  }
  expect(checked).toBeGreaterThan(100);
});
