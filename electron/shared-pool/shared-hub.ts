// One host's connection to the Redis its shared providers live on (SPEC §7): the link, Redis's
// clock, the key prefix and this host's name. The host starts without waiting for Redis: each
// shared provider waits for `ready()` instead, so an unreachable Redis delays admissions to
// shared providers (with the reason shown) and nothing else.
import type { RedisState } from "../../shared/types";
import type { Clock } from "../engine/clock";
import { redisClock, type RedisClock } from "./redis-clock";
import { connectRedis, type RedisLink } from "./redis-link";

export interface SharedHubOptions {
  /** `redis://` or `rediss://`, user and password in it; never shown anywhere. */
  url: string;
  /** Keys live under `<prefix>:<providerId>:` (SPEC §7, default `headroom`). */
  prefix: string;
  /** The host's own clock; shared state is judged on Redis's, measured against it. */
  clock: Clock;
}

/** What a shared provider needs once this host is named and Redis's clock is measured. */
export interface SharedLink {
  link: RedisLink;
  clock: RedisClock;
  host: string;
  prefix: string;
}

export class SharedHub {
  readonly prefix: string;
  private readonly link: RedisLink;
  private name: string | undefined;
  private clock: RedisClock | undefined;
  private readonly linked: Promise<SharedLink>;
  private named!: (host: string) => void;
  private readonly pending = new Set<Promise<unknown>>();
  private closed = false;

  constructor(options: SharedHubOptions) {
    this.prefix = options.prefix;
    this.link = connectRedis(options.url);
    const host = new Promise<string>((resolve) => (this.named = resolve));
    this.linked = host.then(async (name) => {
      const clock = await redisClock(this.link, options.clock);
      if (this.closed) clock.stop();
      this.clock = clock;
      return { link: this.link, clock, host: name, prefix: this.prefix };
    });
    // A hub closed before Redis ever answered leaves this promise pending: nobody is left to wait.
    this.linked.catch(() => undefined);
  }

  /** Names this host in shared state (SPEC §7: HEADROOM_HOST_NAME, else `<hostname>:<api port>`). */
  start(hostName: string): void {
    this.name = hostName;
    this.named(hostName);
  }

  get hostName(): string | undefined {
    return this.name;
  }

  /** Resolves once the host is named and Redis's clock measured: never while Redis is unreachable. */
  ready(): Promise<SharedLink> {
    return this.linked;
  }

  /** Redis's clock minus the host's, once measured (0 before: nothing is judged then). */
  get offsetMs(): number {
    return this.clock?.offsetMs ?? 0;
  }

  state(): RedisState {
    const error = this.link.lastError;
    return this.link.connected || error === undefined ? { connected: this.link.connected } : { connected: false, error };
  }

  /** Connected and answering: while a stalled Redis does not answer, shared admissions wait and the status says why. */
  get answering(): boolean {
    return this.link.answering;
  }

  onConnectionChange(listener: (connected: boolean) => void): () => void {
    return this.link.onConnectionChange(listener);
  }

  /** Work that must finish before the link closes (a provider leaving hands its leases back). */
  track(work: Promise<unknown>): void {
    const settled = work.catch(() => undefined);
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
  }

  /** Waits for tracked work (at most `graceMs` while Redis is unreachable), then disconnects. */
  async close(graceMs = 2_000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const grace = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
    if (this.pending.size > 0) await Promise.race([Promise.all([...this.pending]), grace]);
    this.clock?.stop();
    await this.link.close().catch(() => undefined);
  }
}
