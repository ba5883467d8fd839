import { expect, test } from "vitest";
import { SERIES_STEP_MS, SeriesSampler } from "../../electron/service/series-sampler";
import type { ConcurrencyStatusEntry } from "../../shared/types";
import { createFakeClock } from "../support/fake-clock";
import { statusEntry } from "../support/status-entry";

function sampled() {
  const clock = createFakeClock(1_000_000);
  let providers: ConcurrencyStatusEntry[] = [statusEntry("anthropic", { limit: 4, active: 1 })];
  const sampler = new SeriesSampler({ clock, read: () => providers });
  return { clock, sampler, set: (next: ConcurrencyStatusEntry[]) => (providers = next) };
}

test("a provider is sampled every 2 s from the moment the host starts", () => {
  const { clock, sampler, set } = sampled();
  sampler.start();
  clock.advance(SERIES_STEP_MS);
  set([statusEntry("anthropic", { limit: 4, active: 3, queued: 2, recycling: 1 })]);
  clock.advance(SERIES_STEP_MS);
  expect(sampler.read(5)).toEqual({
    stepMs: 2_000,
    providers: {
      anthropic: { at: [1_000_000, 1_002_000, 1_004_000], limit: [4, 4, 4], active: [1, 1, 3], queued: [0, 0, 2], recycling: [0, 0, 1] },
    },
  });
});

test("minutes picks the recent samples; an hour is kept and older ones are dropped", () => {
  const { clock, sampler } = sampled();
  sampler.start();
  clock.advance(90 * 60_000);
  const { at } = sampler.read(60).providers.anthropic!;
  expect(at).toHaveLength(1_800);
  expect(at[0]).toBe(clock.now() - 60 * 60_000 + SERIES_STEP_MS);
  expect(sampler.read(5).providers.anthropic!.at).toHaveLength(151); // both ends included
});

test("a removed provider's history goes with it; stop ends sampling", () => {
  const { clock, sampler, set } = sampled();
  sampler.start();
  set([statusEntry("openai")]);
  clock.advance(SERIES_STEP_MS);
  expect(Object.keys(sampler.read(5).providers)).toEqual(["openai"]);
  sampler.stop();
  expect(clock.pending()).toBe(0);
  clock.advance(10 * SERIES_STEP_MS);
  expect(sampler.read(5).providers.openai!.at).toHaveLength(1);
});
