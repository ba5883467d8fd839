// A provider pool whose state lives in Redis, shared by every host on the same Redis and key
// prefix (SPEC §7). It asks the same questions as the local pool (electron/engine/
// provider-pool.ts) and answers them the same way: the rules run in one Lua script
// (pool-script.ts), judged at the time this host passes in. Here, on the host, only what is
// the host's own, each in its module: its waiters (shared-waiters.ts), its leases and what their
// 429s did (shared-leases.ts), Redis's answers to both (inbox-delivery.ts), the settings and
// status it last saw (shared-settings.ts), its calls and the epoch they name (epoch-link.ts),
// its usage gate, timers for the moments Redis's state changes by itself (a cooldown or a
// pause ends), wake-ups from other hosts, and the wait percentiles of its own admissions.
import type { HistoryKind, LeaseOutcome, UsageGateReading } from "../../shared/types";
import * as say from "../engine/pool-messages";
import type { AcquireOptions, AcquireResult, GateProbe, Lease, PersistedLease, PoolConfig } from "../engine/pool-types";
import { WaitStats } from "../engine/wait-stats";
import * as windowSay from "../engine/window-messages";
import type { WindowSighting } from "../engine/window-readings";
import { ABORTED, REMOVED } from "../engine/waiter-queue";
import { ChangeFeed } from "./change-feed";
import { EpochLink } from "./epoch-link";
import type { HostLeases } from "./host-leases";
import { InboxDelivery } from "./inbox-delivery";
import { readLeaseList, type SharedLeaseList } from "./lease-list";
import { HOST_REFRESH_MS } from "./lua/hosts";
import type { ScriptReply, SettingsFields } from "./pool-protocol";
import { SharedGate } from "./shared-gate";
import { SharedLeases } from "./shared-leases";
import { SharedSettings } from "./shared-settings";
import type { SharedStatusEntry } from "./shared-status";
import { SharedWaiters } from "./shared-waiters";
import type { SharedPoolDeps } from "./shared-pool-deps";
import { WakeTimers } from "./wake-timers";

export type { SharedStatusEntry } from "./shared-status";

const DEFAULT_POLL_MS = 1_000;

const NO_OPTIONS: AcquireOptions = Object.freeze({});

export class SharedPool {
  readonly providerId: string;
  private readonly keys: string;
  private readonly link: EpochLink;
  private readonly waiters: SharedWaiters;
  private readonly leases: SharedLeases;
  /** The leases this host was handed and has not released: what it would re-register. */
  private readonly held: HostLeases;
  private readonly waits = new WaitStats();
  private readonly settings: SharedSettings;
  private readonly timers: WakeTimers;
  private unsubscribe: (() => Promise<void>)[] = [];
  private readonly changes: ChangeFeed;
  private stopWatchingLink: (() => void) | undefined;
  private readonly gate: SharedGate;
  private readonly inbox: InboxDelivery;
  /** Seeded: a change of the usage gate is told to Redis at once. */
  private started = false;
  private disposed = false;

  constructor(private readonly deps: SharedPoolDeps) {
    this.providerId = deps.providerId;
    this.keys = `${deps.keyPrefix ?? "headroom"}:${deps.providerId}`;
    this.timers = new WakeTimers(deps.clock, () => this.drive(), deps.pollMs ?? DEFAULT_POLL_MS);
    this.changes = new ChangeFeed(deps.clock, () => this.deps.onChange?.());
    this.link = new EpochLink({
      redis: deps.redis,
      keys: this.keys,
      host: deps.host,
      clock: deps.clock,
      handle: (reply, read) => this.handle(reply, read),
      holdings: () => this.holdings(),
      replay: async (send) => {
        if (this.gate.configured) await send("gate", { gated: 1 });
        for (const [waiterId, asked] of this.waiters.asked()) await send("acquire", { waiterId, ...asked });
      },
      lateLeases: (late) =>
        this.deps.log?.(`${late} lease(s) of ${this.deps.host} on shared provider ${this.providerId} re-registered after the 10 s window; they may exceed the limit until released`),
    });
    this.waiters = new SharedWaiters({
      host: deps.host,
      ...(deps.newId ? { newId: deps.newId } : {}),
      clock: deps.clock,
      connected: () => this.deps.redis.connected,
      enqueue: (waiterId, asked) => this.link.call("acquire", { waiterId, ...asked }),
      leave: async (waiterId) => (await this.link.call("leave", { waiterId }))?.left === true,
      polling: (on) => (on ? this.timers.startPolling() : this.timers.stopPolling()),
      background: (work) => this.background(work),
    });
    this.leases = new SharedLeases({
      providerId: deps.providerId,
      link: this.link,
      clock: deps.clock,
      event: (kind, message) => this.event(kind, message),
      ...(deps.onLeaseExpired ? { onLeaseExpired: deps.onLeaseExpired } : {}),
      reduced: () => this.background(this.settings.reduced()),
      arrivedBefore: (leaseId) => this.waiters.arrivedBefore(leaseId),
    });
    this.held = this.leases.held;
    const report = (askId: string, sessions: number | undefined, pollMs: number) =>
      this.background(this.link.call("gateAnswer", { askId, sessions: sessions ?? "", pollMs }));
    this.gate = new SharedGate(deps.clock, report, () => this.deps.onChange?.());
    this.settings = new SharedSettings({
      providerId: deps.providerId,
      link: this.link,
      clock: deps.clock,
      answering: () => this.deps.redis.answering,
      waitingHere: () => this.waiters.size,
      hostSide: (now) => ({ waits: this.waits.percentiles(now), usageGate: this.gate.reading() }),
    });
    this.inbox = new InboxDelivery({
      providerId: deps.providerId,
      link: this.link,
      waiters: this.waiters,
      leases: this.leases,
      gate: this.gate,
      waits: this.waits,
      background: (work) => this.background(work),
      failed: (error) => this.failed(error),
    });
  }

  /** Joins the shared provider, seeding Redis with `config` unless it already holds it. */
  async start(config: PoolConfig): Promise<void> {
    this.unsubscribe = await Promise.all([
      this.deps.redis.subscribe(`${this.keys}:wake:${this.deps.host}`, () => this.drive()),
      this.deps.redis.subscribe(`${this.keys}:changed`, () => this.changes.heard()),
    ]);
    const seeded = await this.link.call("seed", {}, this.settings.seed(config));
    if (seeded) this.link.joinedEpoch(seeded.epoch);
    this.started = true;
    if (this.gate.configured) await this.link.call("gate", { gated: 1 });
    this.timers.startHeartbeat(this.deps.refreshMs ?? HOST_REFRESH_MS);
    this.stopWatchingLink = this.deps.redis.onConnectionChange((connected) => {
      // Gave up just before the link dropped: the answer to their leaving waits for Redis, they do not.
      if (!connected) this.waiters.disconnected();
      // Back after an outage: says it is alive at once, as its heartbeat would (a host told to stay quiet does not).
      if (connected && (this.deps.refreshMs ?? HOST_REFRESH_MS) > 0) this.drive();
      this.deps.onChange?.();
    });
    await this.status();
  }

  /** The state in Redis this host joined (its epoch key); until seeded, the one it would create. */
  get epoch(): string {
    return this.link.epoch;
  }

  // ── admission ──────────────────────────────────────────────────────────────

  acquire(options: AcquireOptions = NO_OPTIONS): Promise<AcquireResult> {
    if (this.disposed) return Promise.resolve(REMOVED);
    if (options.signal?.aborted) return Promise.resolve(ABORTED);
    return this.waiters.acquire(options);
  }

  /**
   * Names this host's waiters, so Redis tells again an admission whose reply was lost. Not
   * sent while Redis is unreachable (a queued drive would say "alive" at a stale instant and
   * hide the outage from the script); the link's return drives at once instead.
   */
  private drive(): void {
    if (!this.disposed && this.deps.redis.connected) {
      this.background(this.link.call("drive", { waiterIds: JSON.stringify(this.waiters.ids()) }));
    }
  }

  // ── leases ─────────────────────────────────────────────────────────────────

  release(leaseId: string, outcome: LeaseOutcome, retryAfterMs?: number): Promise<boolean> {
    return this.leases.release(leaseId, outcome, retryAfterMs);
  }

  /** A request riding on a held lease got a 429: as its `rate_limited` release would, and it stays held. */
  rateLimitedOn(leaseId: string, retryAfterMs?: number): Promise<boolean> {
    return this.leases.rateLimitedOn(leaseId, retryAfterMs);
  }

  /**
   * The early pause (SPEC §6: the provider's headers say no requests are left until `untilMs`):
   * never shortens a longer pause, lowers nothing; a pause it starts shows `reason`.
   */
  pauseUntil(untilMs: number, reason: string): Promise<void> {
    return this.leases.pauseUntil(untilMs, reason);
  }

  returnUndelivered(leaseId: string): Promise<boolean> {
    return this.leases.returnUndelivered(leaseId);
  }

  /** Extends a TTL lease by its ttl from now (on Redis's clock); undefined once it is not held. */
  heartbeat(leaseId: string): Promise<Lease | undefined> {
    return this.leases.heartbeat(leaseId);
  }

  /** The leases this host holds on the shared provider, as it was handed them. */
  heldLeases(): Lease[] {
    return this.held.list();
  }

  isHeld(leaseId: string): boolean {
    return this.held.has(leaseId);
  }

  /**
   * Leases this host holds that Redis does not know of for it: restored from disk after a
   * restart (those Redis still holds for this host stay as they are) or moved from a local
   * pool. Held at once, over the limit if they must be; a TTL lease runs at least its ttl
   * from now, and one with no time left expires here (SPEC §3).
   */
  adopt(leases: PersistedLease[]): Promise<void> {
    return this.leases.adopt(leases);
  }

  // ── settings ───────────────────────────────────────────────────────────────

  setLimit(limit: number): Promise<void> {
    return this.settings.setLimit(limit);
  }

  setCooldown(cooldownMs: number): Promise<void> {
    return this.settings.setCooldown(cooldownMs);
  }

  async resume(): Promise<void> {
    if ((await this.link.call("resume", {}))?.wasPaused) this.event("resumed", say.resumedMessage(this.providerId));
  }

  /**
   * A plan-window reading from an answer (SPEC §8), shared by every host: `usedUp` pauses the
   * provider in Redis until the window's reset; any other answer while the probe is out opens it.
   * `answered` false: windows a client posted (SPEC §10), shared but no answer to a probe.
   */
  async noteWindow(usedUp: { label: string; resetsAt?: number } | undefined, sightings: WindowSighting[] = [], answered = true): Promise<void> {
    const verdict = usedUp
      ? { usedUp: 1, label: usedUp.label, resetsAt: usedUp.resetsAt ?? "" }
      : { usedUp: answered ? 0 : -1, label: "", resetsAt: "" };
    await this.link.call("windowNote", { ...verdict, sightings: sightings.length > 0 ? JSON.stringify(sightings) : "" });
  }

  /** This host's usage gate (SPEC §7: it stays on each host), polled when its waiter heads the queue; undefined: none. */
  setUsageProbe(gate: GateProbe | undefined): void {
    this.gate.set(gate);
    if (this.started) this.background(this.link.call("gate", { gated: gate ? 1 : 0 }));
  }

  /** On Redis's clock. */
  usageReading(): UsageGateReading | undefined {
    return this.gate.reading();
  }

  /** The banner's dismissal stays on this host (SPEC §7). */
  dismissNotice(): void {
    this.settings.dismissNotice();
  }

  // ── reading ────────────────────────────────────────────────────────────────

  config(): Promise<PoolConfig> {
    return this.settings.config();
  }

  /** Every host's held leases and waiters, in FIFO order, on Redis's clock. */
  async leaseList(): Promise<SharedLeaseList> {
    const reply = await this.link.call("leases", {});
    if (!reply) throw new Error(`shared provider ${this.providerId} was disposed`);
    return readLeaseList(reply);
  }

  /** The last entry Redis gave (what status() would answer while it is unreachable), without asking. */
  lastKnownStatus(): SharedStatusEntry | undefined {
    return this.settings.lastKnown();
  }

  /** Asks Redis, unless it cannot be asked: then the last entry it gave, with this host's waiters queued at least. */
  status(): Promise<SharedStatusEntry> {
    return this.settings.status();
  }

  /** Resolves once every operation this host sent has been answered and its answers handled. */
  settled(): Promise<void> {
    return this.inbox.settled();
  }

  /**
   * Answers this host's waiters with `removed` and stops its timers; Redis keeps the provider.
   * Its leases are handed back as failures, unless `keepLeases`: a host stopping to restart keeps
   * them (it adopts them again when back, or Redis frees them 10 s after its last heartbeat).
   */
  async dispose({ keepLeases = false }: { keepLeases?: boolean } = {}): Promise<void> {
    if (this.disposed) return;
    const waiterIds = this.waiters.waitingIds();
    const departs = keepLeases ? [] : [this.link.call("depart", {})];
    try {
      await Promise.all([...waiterIds.map((waiterId) => this.link.call("leave", { waiterId })), ...departs]);
    } finally {
      // A link already closed rejects the calls above; the host's own side is cleaned up regardless.
      this.disposed = true;
      this.link.close();
      this.gate.set(undefined);
      this.waiters.removed(waiterIds);
      this.timers.stop();
      this.changes.stop();
      this.stopWatchingLink?.();
    }
    await Promise.all(this.unsubscribe.map((unsubscribe) => unsubscribe()));
    await this.settled();
  }

  // ── the link ───────────────────────────────────────────────────────────────

  /** What a Redis that lost the state this host joined gets back from it (EpochLink.reregister). */
  private holdings(): { leases: ReturnType<HostLeases["scriptArgs"]>; settings: SettingsFields | undefined } {
    // A Redis that lost its data holds no admission for a waiter that gave up during the outage.
    this.waiters.forgetGaveUp();
    return { leases: this.held.scriptArgs(), settings: this.settings.reseed() };
  }

  /** `read`: the operation only read the state; it tells of a change only if it delivered something. */
  private handle({ inbox, wakeAt, hostExpiresAt, windowEvents }: ScriptReply, read: boolean): void {
    this.inbox.deliver(inbox);
    const offsetMs = this.deps.offsetMs?.() ?? 0;
    for (const { kind, label, at, untilAt = at } of windowEvents ?? []) {
      const words = kind === "window_reset" ? windowSay.resetMessage(this.providerId, label) : windowSay.exhaustedMessage(this.providerId, label, untilAt - offsetMs, at - offsetMs);
      this.event(kind, words);
    }
    this.timers.at(wakeAt);
    this.timers.hostExpiry(hostExpiresAt, this.waiters.size > 0);
    if (!read || inbox.length > 0) this.deps.onChange?.();
  }

  private background(work: Promise<unknown>): void {
    work.catch((error: unknown) => this.failed(error));
  }

  private failed(error: unknown): void {
    this.deps.onError?.(error instanceof Error ? error : new Error(String(error)));
  }

  private event(kind: HistoryKind, message: string): void {
    this.deps.onEvent?.({ kind, message });
  }
}
