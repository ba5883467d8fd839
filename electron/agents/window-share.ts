// Each agent's share of its provider's binding window (SPEC §9 "Share of the window"): the
// window's `usedPercent` times the agent's part of what the provider's answers cost since the
// window began. An estimate — the provider meters its window by its own rules, which it does
// not publish — and every place that shows it says so (`≈ 23 % of the 5-hour window`).
// Dollars weigh the token kinds the way the provider prices them; when any answer in the span
// had no price, dollars would leave it out, so every share falls back to tokens weighted like
// Anthropic's list prices relative to input (1 input, 5 output, 0.1 cache read, 1.25 cache write).
import type { WindowShare } from "../../shared/agents";
import type { UsageCount } from "./usage-count";

const weighted = ({ tokens }: UsageCount) => tokens.input + 5 * tokens.output + 0.1 * tokens.cacheRead + 1.25 * tokens.cacheWrite;

/**
 * The shares of the agents of one provider, by the key their counts have in `used`, given the
 * binding window's name and `usedPercent`. Agents with nothing counted get no share.
 */
export function windowShares(used: ReadonlyMap<string, UsageCount>, window: { name: string; usedPercent: number }): Map<string, WindowShare> {
  let cost = 0;
  let weight = 0;
  let unpriced = false;
  for (const count of used.values()) {
    cost += count.costUsd;
    weight += weighted(count);
    if (count.unpriced > 0) unpriced = true;
  }
  const byCost = !unpriced && cost > 0;
  const total = byCost ? cost : weight;
  const shares = new Map<string, WindowShare>();
  if (total <= 0) return shares;
  for (const [key, count] of used) {
    const part = byCost ? count.costUsd : weighted(count);
    if (part <= 0) continue;
    shares.set(key, { window: window.name, percent: Math.round((window.usedPercent * part) / total * 10) / 10 });
  }
  return shares;
}
