// A bounded memory whose entries expire: what the identity lookups learned (SPEC §9), kept so
// the next lookup need not read /proc again, but never growing with what a process opens.

export class AgedMap<K, V> {
  private readonly entries = new Map<K, { value: V; at: number }>();

  constructor(
    private readonly max: number,
    private readonly maxAgeMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.now() - entry.at > this.maxAgeMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Newest last: the map's own order is the age order, so the oldest goes first when it is full. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, at: this.now() });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as K);
  }
}
