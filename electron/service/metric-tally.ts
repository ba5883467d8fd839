// Per-request counts kept as plain numbers and handed to prom-client when /metrics is read:
// prom-client's inc() hashes and validates the label object on every call (about a tenth of
// the proxy's own CPU per request at saturation, issue 27 item 6). One entry per series, so
// the tally is as bounded as the counter it feeds.
import type { Counter } from "prom-client";

export class MetricTally<L extends string> {
  private readonly pending = new Map<string, { labels: Partial<Record<L, string>>; count: number }>();

  /** `key` names the series; `labels` is built only the first time it is seen. */
  add(key: string, labels: () => Partial<Record<L, string>>, count = 1): void {
    const entry = this.pending.get(key);
    if (entry) entry.count += count;
    else this.pending.set(key, { labels: labels(), count });
  }

  /** Called from the counter's collect(): what was added since the last scrape reaches it. */
  flushInto(counter: Counter<L>): void {
    for (const entry of this.pending.values()) {
      if (entry.count === 0) continue;
      counter.inc(entry.labels, entry.count);
      entry.count = 0;
    }
  }
}
