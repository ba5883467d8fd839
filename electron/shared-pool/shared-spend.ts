// A shared provider's cost per UTC date (SPEC §9 "Daily budget": shared providers add up every
// host's cost in Redis and end their budget day at midnight UTC). One float per provider and
// date, `<prefix>:<providerId>:spend:<YYYY-MM-DD>`, that each host adds its answers' cost to
// (INCRBYFLOAT is atomic, so no host's cost is lost to another's) and reads back; it expires two
// days after its last add, so Redis keeps no more than yesterday's and today's.
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

const keyOf = (prefix: string, providerId: string, date: string) => `${prefix}:${providerId}:spend:${date}`;
