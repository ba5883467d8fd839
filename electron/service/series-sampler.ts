// The load history behind the window's chart (SPEC §4, `GET /series`): every provider is
// sampled every 2 s and an hour is kept in memory, so a window opened now shows the last
// minutes at once. Time comes from the injected clock, so tests move it by hand.
import type { ConcurrencyStatusEntry, ProviderSeries, SeriesResponse } from "../../shared/types";
import type { Clock, TimerHandle } from "../engine/clock";

export const SERIES_STEP_MS = 2_000;
const SERIES_KEEP_MS = 60 * 60_000;

export interface SeriesSamplerOptions {
  clock: Clock;
  /** The providers as they are now (the service's status). */
  read: () => readonly ConcurrencyStatusEntry[];
  stepMs?: number;
  keepMs?: number;
}

export class SeriesSampler {
  private readonly series = new Map<string, ProviderSeries>();
  private readonly stepMs: number;
  private readonly keep: number;
  private timer: TimerHandle | undefined;

  constructor(private readonly options: SeriesSamplerOptions) {
    this.stepMs = options.stepMs ?? SERIES_STEP_MS;
    this.keep = Math.ceil((options.keepMs ?? SERIES_KEEP_MS) / this.stepMs);
  }

  start(): void {
    if (this.timer !== undefined) return;
    const tick = () => {
      this.sample();
      this.timer = this.options.clock.setTimeout(tick, this.stepMs);
    };
    tick();
  }

  stop(): void {
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Takes one sample of every provider now; a removed provider's history goes with it. */
  sample(): void {
    const at = this.options.clock.now();
    const seen = new Set<string>();
    for (const entry of this.options.read()) {
      seen.add(entry.providerId);
      let line = this.series.get(entry.providerId);
      if (!line) {
        line = { at: [], limit: [], active: [], queued: [], recycling: [] };
        this.series.set(entry.providerId, line);
      }
      line.at.push(at);
      line.limit.push(entry.limit);
      line.active.push(entry.active);
      line.queued.push(entry.queued);
      line.recycling.push(entry.recycling);
      if (line.at.length > this.keep) for (const values of Object.values(line)) values.shift();
    }
    for (const id of this.series.keys()) if (!seen.has(id)) this.series.delete(id);
  }

  /** The samples of the last `minutes` minutes, oldest first. */
  read(minutes: number): SeriesResponse {
    const since = this.options.clock.now() - minutes * 60_000;
    const providers: Record<string, ProviderSeries> = {};
    for (const [id, line] of this.series) {
      const from = firstAtOrAfter(line.at, since);
      providers[id] = {
        at: line.at.slice(from),
        limit: line.limit.slice(from),
        active: line.active.slice(from),
        queued: line.queued.slice(from),
        recycling: line.recycling.slice(from),
      };
    }
    return { stepMs: this.stepMs, providers };
  }
}

function firstAtOrAfter(times: readonly number[], since: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((times[middle] as number) < since) low = middle + 1;
    else high = middle;
  }
  return low;
}
