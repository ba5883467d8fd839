// Queue-wait percentiles over the admissions of the last five minutes. Samples live in a
// fixed ring, so a busy provider costs constant memory: past SAMPLE_CAPACITY admissions
// inside the window, the percentiles describe the most recent ones.

const WAIT_WINDOW_MS = 5 * 60_000;
const SAMPLE_CAPACITY = 2048;

export interface WaitPercentiles {
  p50: number;
  p95: number;
}

export class WaitStats {
  private readonly at = new Float64Array(SAMPLE_CAPACITY);
  private readonly waited = new Float64Array(SAMPLE_CAPACITY);
  /** Index of the oldest sample. */
  private start = 0;
  private count = 0;
  private cached: WaitPercentiles | undefined;
  private dirty = false;

  constructor(private readonly windowMs = WAIT_WINDOW_MS) {}

  record(now: number, waitedMs: number): void {
    const slot = (this.start + this.count) % SAMPLE_CAPACITY;
    this.at[slot] = now;
    this.waited[slot] = waitedMs;
    if (this.count < SAMPLE_CAPACITY) this.count++;
    else this.start = (this.start + 1) % SAMPLE_CAPACITY;
    this.dirty = true;
  }

  /** Nearest-rank p50 and p95; undefined when nobody was admitted inside the window. */
  percentiles(now: number): WaitPercentiles | undefined {
    this.dropOlderThan(now - this.windowMs);
    if (this.count === 0) return undefined;
    if (this.dirty || !this.cached) {
      this.cached = this.compute();
      this.dirty = false;
    }
    return this.cached;
  }

  private dropOlderThan(cutoff: number): void {
    while (this.count > 0 && (this.at[this.start] ?? 0) <= cutoff) {
      this.start = (this.start + 1) % SAMPLE_CAPACITY;
      this.count--;
      this.dirty = true;
    }
  }

  private compute(): WaitPercentiles {
    const sorted = new Float64Array(this.count);
    for (let i = 0; i < this.count; i++) sorted[i] = this.waited[(this.start + i) % SAMPLE_CAPACITY] ?? 0;
    sorted.sort();
    const rank = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;
    return { p50: rank(0.5), p95: rank(0.95) };
  }
}
