// A shared provider's cost per UTC date (SPEC §9 "Daily budget": shared providers add up every
// host's cost in Redis and end their budget day at midnight UTC). One float per provider and
// date, `<prefix>:<providerId>:spend:<YYYY-MM-DD>`, that each host adds its answers' cost to
// (INCRBYFLOAT is atomic, so no host's cost is lost to another's) and reads back; it expires two
// days after its last add, so Redis keeps no more than yesterday's and today's. The budget itself
// is one per shared provider (SPEC §8 "Each host's settings"): `<prefix>:<providerId>:budget`,
// dollars or "off" (absent: no host has set one since the provider was shared).
import type { SharedHub } from "./shared-hub";

const KEEP_S = 2 * 86_400;

export class SharedSpend {
  constructor(private readonly hub: SharedHub) {}

  /** Adds one answer's cost; resolves with every host's sum for that date. */
  async add(providerId: string, date: string, usd: number): Promise<number> {
    const { link, prefix } = await this.hub.ready();
    return link.addFloat(keyOf(prefix, providerId, date), usd, KEEP_S);
  }

  /** Every host's sum for that date (0 before any cost). */
  async read(providerId: string, date: string): Promise<number> {
    const { link, prefix } = await this.hub.ready();
    return link.readFloat(keyOf(prefix, providerId, date));
  }
}

/** A shared provider's budget in Redis: dollars, "off", or undefined when none was ever set there. */
export type SharedBudget = number | "off" | undefined;

const OFF = "off";

export class SharedBudgetAmount {
  constructor(private readonly hub: SharedHub) {}

  async write(providerId: string, usd: number | undefined): Promise<void> {
    const { link, prefix } = await this.hub.ready();
    await link.writeText(budgetKeyOf(prefix, providerId), usd === undefined ? OFF : String(usd));
  }

  async read(providerId: string): Promise<SharedBudget> {
    const { link, prefix } = await this.hub.ready();
    const text = await link.readText(budgetKeyOf(prefix, providerId));
    if (text === undefined) return undefined;
    if (text === OFF) return OFF;
    const usd = Number(text);
    return Number.isFinite(usd) && usd > 0 ? usd : undefined;
  }
}

const keyOf = (prefix: string, providerId: string, date: string) => `${prefix}:${providerId}:spend:${date}`;
const budgetKeyOf = (prefix: string, providerId: string) => `${prefix}:${providerId}:budget`;
