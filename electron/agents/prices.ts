// What one counted answer cost in US dollars (SPEC §9 "What it cost"), from the model's
// published prices as @pydantic/genai-prices bundles them. Only its bundled data is read:
// `updatePrices` is never called, so nothing is downloaded at run time and a host's figures
// change only with a dependency update (docs/cost.md).
//
// The library's `calcPrice` costs 15–140 µs per call (it resolves the provider, matches the
// model and decomposes the usage into units every time). A proxy at 256 concurrent streams
// cannot spend that per answer, so each (family, model) is resolved once into a rate card
// and the four token kinds are priced here by the library's own rules, which the unit tests
// hold equal to `calcPrice` for every Anthropic, OpenAI and Google model it lists:
// - its `input_tokens` is the whole input, cache reads and writes included (Headroom's
//   `input` excludes them), and a cache kind without its own price costs the input price;
// - a tiered price (long context) applies to the whole answer once the whole input passes
//   the tier's start, for output as for input;
// - a per-request price (`requests_kcount`) is charged once per answer.
// Cards whose price changes with the date or the hour (`ConditionalPrice[]`) go through
// `calcPrice` on each answer, restricted to their one model so it stays cheap.
import { calcPrice, type ModelInfo, type ModelPrice, type Provider } from "@pydantic/genai-prices";
import type { TokenCounts } from "../../shared/agents";

/** How a provider's prices are looked up: by its upstream's host, else by the path's format. */
export type PriceFamily = "anthropic" | "openai" | "google" | "openrouter" | "other";
/** The path's format as the proxy reads it (the flavor of its answers). */
export type PathFormat = "anthropic" | "openai" | "google";

const HOST_FAMILIES: readonly (readonly [RegExp, PriceFamily])[] = [
  [/(^|\.)anthropic\.com$/, "anthropic"],
  [/(^|\.)openai\.com$/, "openai"],
  [/(^|\.)chatgpt\.com$/, "openai"], // Codex on a ChatGPT login: OpenAI's models and prices
  [/(^|\.)googleapis\.com$/, "google"],
  [/(^|\.)openrouter\.ai$/, "openrouter"],
];

/**
 * The presets' hosts name their family (SPEC §10); any other upstream is priced by its path's
 * format: an Anthropic or Gemini path by that vendor's prices, an OpenAI-compatible one by the
 * model name (a gateway in front of OpenAI prices as OpenAI, one serving `vendor/model` names
 * as that vendor).
 */
export function priceFamily(host: string | undefined, format: PathFormat): PriceFamily {
  // Asked once per proxied answer, of the few upstreams a user has: remembered per host and format.
  const key = `${format} ${host ?? ""}`;
  let family = familyOf.get(key);
  if (family === undefined) {
    if (familyOf.size >= MAX_REMEMBERED_HOSTS) familyOf.clear();
    familyOf.set(key, (family = familyOfHost(host, format)));
  }
  return family;
}

const MAX_REMEMBERED_HOSTS = 256;
const familyOf = new Map<string, PriceFamily>();

function familyOfHost(host: string | undefined, format: PathFormat): PriceFamily {
  const name = host?.toLowerCase().replace(/:\d+$/, "");
  if (name) for (const [pattern, family] of HOST_FAMILIES) if (pattern.test(name)) return family;
  return format === "openai" ? "other" : format;
}

export interface AnswerCost {
  /** 0 when unpriced. */
  costUsd: number;
  /** The library has no price for this model: its tokens count, its cost does not. */
  unpriced: boolean;
}

interface Card {
  provider: Provider;
  model: ModelInfo;
  /** Fixed prices, priced here; undefined = conditional, priced by the library each time. */
  fixed: ModelPrice | undefined;
}

type Tiered = { base: number; tiers: readonly { start: number; price: number }[] };
type Rate = number | Tiered | undefined;

/** The library's rule: the last tier whose start the whole input passes sets the price of the whole answer. */
function perMillion(rate: Rate, totalInput: number): number | undefined {
  if (rate === undefined || typeof rate === "number") return rate;
  let price = rate.base;
  for (const tier of rate.tiers) if (totalInput > tier.start) price = tier.price;
  return price;
}

/** Dollars for one answer's tokens at a fixed rate card. */
export function priceAt(card: ModelPrice, tokens: TokenCounts): number {
  const totalInput = tokens.input + tokens.cacheRead + tokens.cacheWrite;
  const rate = (key: string) => perMillion(card[key] as Rate, totalInput);
  const input = rate("input_mtok") ?? 0;
  const perRequest = card.requests_kcount;
  const micro =
    tokens.input * input +
    tokens.cacheRead * (rate("cache_read_mtok") ?? input) +
    tokens.cacheWrite * (rate("cache_write_mtok") ?? input) +
    tokens.output * (rate("output_mtok") ?? 0);
  return micro / 1e6 + (typeof perRequest === "number" ? perRequest / 1000 : 0);
}

/** The library's usage: `input_tokens` is the whole input, cache reads and writes included. */
export function libraryUsage(tokens: TokenCounts): Record<string, number> {
  return {
    input_tokens: tokens.input + tokens.cacheRead + tokens.cacheWrite,
    cache_read_tokens: tokens.cacheRead,
    cache_write_tokens: tokens.cacheWrite,
    output_tokens: tokens.output,
  };
}

const VENDORS: Readonly<Record<string, string>> = { anthropic: "anthropic", openai: "openai", google: "google", "google-ai-studio": "google" };
const PROBE = { input_tokens: 1, output_tokens: 1 };

function resolve(model: string, providerId: string | undefined): Card | undefined {
  let found;
  try {
    found = calcPrice(PROBE, model, providerId === undefined ? {} : { providerId });
  } catch {
    return undefined; // a model the library cannot price with tokens alone
  }
  if (!found) return undefined;
  const fixed = Array.isArray(found.model.prices) ? undefined : found.model.prices;
  return { provider: { ...found.provider, models: [found.model] }, model: found.model, fixed };
}

/** Where a family looks a model up, in order: its own catalogue, then the vendor a `vendor/model` name names. */
function lookUp(family: PriceFamily, model: string): Card | undefined {
  // `other`: an OpenAI-compatible upstream, whose model's name says whose it is (gpt-…, claude-…, gemini-…).
  const card = resolve(model, family === "other" ? undefined : family);
  if (card) return card;
  const slash = model.indexOf("/");
  if (slash > 0) {
    const vendor = VENDORS[model.slice(0, slash).toLowerCase()];
    if (vendor) return resolve(model.slice(slash + 1), vendor);
  }
  // OpenRouter lists what it routes; a name it lacks may still say whose it is (gpt-…, claude-…).
  return family === "openrouter" ? resolve(model, undefined) : undefined;
}

/** At most this many cards are kept; model names come from the wire, so the map is bounded. */
const MAX_CARDS = 2_000;

export class PriceBook {
  /** family → model → card (null: looked up, not priced). */
  private readonly cards = new Map<PriceFamily, Map<string, Card | null>>();
  private size = 0;

  /** One answer's cost; `at` (epoch ms) picks a conditional card's price. */
  price(family: PriceFamily, model: string, tokens: TokenCounts, at: number): AnswerCost {
    const card = this.card(family, model);
    if (!card) return { costUsd: 0, unpriced: true };
    if (card.fixed) return { costUsd: priceAt(card.fixed, tokens), unpriced: false };
    try {
      const result = calcPrice(libraryUsage(tokens), model, { provider: card.provider, timestamp: new Date(at) });
      return result ? { costUsd: result.total_price, unpriced: false } : { costUsd: 0, unpriced: true };
    } catch {
      return { costUsd: 0, unpriced: true };
    }
  }

  /** The rate card a family's model resolves to, looked up once. */
  card(family: PriceFamily, model: string): Card | undefined {
    let models = this.cards.get(family);
    if (!models) this.cards.set(family, (models = new Map()));
    let card = models.get(model);
    if (card === undefined) {
      if (this.size >= MAX_CARDS) {
        for (const each of this.cards.values()) each.clear();
        this.size = 0;
      }
      card = lookUp(family, model) ?? null;
      models.set(model, card);
      this.size++;
    }
    return card ?? undefined;
  }
}
