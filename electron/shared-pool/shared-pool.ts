// A provider pool whose state lives in Redis, shared by every host on the same Redis and key
// prefix (SPEC §7). It asks the same questions as the local pool (electron/engine/
// provider-pool.ts) and answers them the same way: the rules run in one Lua script
// (pool-script.ts), judged at the time this host passes in. Here, on the host, only what is
// the host's own: its waiters' promises, their deadlines and abort signals, timers for the
// moments Redis's state changes by itself (a cooldown or a pause ends), wake-ups from other
// hosts, and the wait percentiles of its own admissions.
import { randomUUID } from "node:crypto";
import type { HistoryEvent, HistoryKind, LeaseOutcome, UsageGateReading } from "../../shared/types";
import { checkCooldownMs, checkLimit } from "../../shared/validate";
import { valid } from "../engine/adaptive-limit";
import type { Clock, TimerHandle } from "../engine/clock";
import * as say from "../engine/pool-messages";
import type { AcquireOptions, AcquireResult, Lease, PersistedLease, PoolConfig } from "../engine/pool-types";
import { WaitStats } from "../engine/wait-stats";
import { ABORTED, REMOVED, TIMED_OUT } from "../engine/waiter-queue";
import { ChangeFeed } from "./change-feed";
import { EXPIRED, HostLeases } from "./host-leases";
import { readInboxEntry } from "./inbox";
import { readLeaseList, type SharedLeaseList } from "./lease-list";
import { HOST_REFRESH_MS, type Operation } from "./pool-script";
import type { RedisLink, ScriptReply } from "./redis-link";
import { SharedGate, type GateProbe } from "./shared-gate";
import { statusEntry, unreachableEntry, type SharedStatusEntry } from "./shared-status";
import { WakeTimers } from "./wake-timers";

export interface SharedPoolDeps {
  providerId: string;
  /** This host's name in shared state (SPEC §7: HEADROOM_HOST_NAME, else `<hostname>:<port>`). */
  host: string;
  /**
   * Names this run of the host in its waiter ids (`<host>.<run>.<n>`), so a restarted host never
   * hands out an id it held before, nor one still recycling. Tests leave it out (`<host>.<n>`).
   */
  run?: string;
  redis: RedisLink;
  /** Keys live under `<keyPrefix>:<providerId>:` (default prefix `headroom`). */
  keyPrefix?: string;
  /** Redis's time, in this host's terms it is `Date.now() + offset` (see redis-clock.ts). */
  clock: Clock;
  /** How often a host with waiters asks Redis again in case a wake-up was lost; 0 = never. */
  pollMs?: number;
  /** How often this host says it is alive (default 2 s); 0 = never, to play a host that died. */
  refreshMs?: number;
  onEvent?: (event: Omit<HistoryEvent, "at" | "providerId">) => void;
  onChange?: () => void;
  /** A TTL lease of this host's ran out without a heartbeat and was released as a failure. */
  onLeaseExpired?: (leaseId: string) => void;
  /** Diagnostics: a lease re-registered after the 10 s window of a Redis that lost its data. */
  log?: (message: string) => void;
  /** A call nobody awaits failed (Redis answered with an error); awaited calls reject instead. */
  onError?: (error: Error) => void;
}

interface Waiting {
  resolve: (result: AcquireResult) => void;
  agentId: string | undefined;
  deadline: TimerHandle | undefined;
  signal: AbortSignal | undefined;
  onAbort: () => void;
  /** The acquire's arguments after the waiter id, to enqueue it again in a Redis that lost it. */
  asked: (string | number)[];
}

export type { SharedStatusEntry } from "./shared-status";

const DEFAULT_POLL_MS = 1_000;
/** The script's answer to an operation naming an epoch Redis no longer holds (pool-script.ts). */
const STALE_EPOCH = -2;

/** Names one release: a resend of it gets its first answer; another release of the lease does not. */
const requestId = (leaseId: string): string => `${leaseId}@${randomUUID()}`;
const NO_OPTIONS: AcquireOptions = Object.freeze({});
/** Operations that change nothing of their own: a status reader is not told of its own reading. */
const READS: ReadonlySet<Operation> = new Set(["status", "leases"]);

export class SharedPool {
  readonly providerId: string;
  private readonly keys: string;
  private readonly waiting = new Map<string, Waiting>();
  /** Waiters answered while Redis was unreachable, whose leaving Redis has not yet confirmed. */
  private readonly gaveUp = new Set<string>();
  /** Waiters that gave up while Redis was reachable, until it confirms they left. */
  private readonly leaving = new Map<string, AcquireResult>();
  /** The leases this host was handed and has not released: what it would re-register. */
  private readonly held: HostLeases;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly waits = new WaitStats();
  private noticeDismissed = false;
  private arrivals = 0;
  private readonly timers: WakeTimers;
  private unsubscribe: (() => Promise<void>)[] = [];
  private readonly changes: ChangeFeed;
  private stopWatchingLink: (() => void) | undefined;
  /** The last entry Redis gave: what status() shows while Redis is unreachable. */
  private lastStatus: SharedStatusEntry | undefined;
  /** The version of the settings in lastStatus: a Redis that lost its data is re-seeded with the newest. */
  private settingsVersion = -1;
  private joined: string = randomUUID();
  private rejoining: Promise<void> | undefined;
  private readonly gate: SharedGate;
  /** Seeded: a change of the usage gate is told to Redis at once. */
  private started = false;
  private disposed = false;

  constructor(private readonly deps: SharedPoolDeps) {
    this.providerId = deps.providerId;
    this.held = new HostLeases(deps.providerId);
    this.keys = `${deps.keyPrefix ?? "headroom"}:${deps.providerId}`;
    this.timers = new WakeTimers(deps.clock, () => this.drive(), deps.pollMs ?? DEFAULT_POLL_MS);
    this.changes = new ChangeFeed(deps.clock, () => this.deps.onChange?.());
    const report = (askId: string, sessions: number | undefined, pollMs: number) =>
      this.background(this.call("gateAnswer", askId, sessions ?? "", pollMs));
    this.gate = new SharedGate(deps.clock, report, () => this.deps.onChange?.());
  }

  /** Joins the shared provider, seeding Redis with `config` unless it already holds it. */
  async start(config: PoolConfig): Promise<void> {
    this.noticeDismissed = config.noticeDismissed;
    this.unsubscribe = await Promise.all([
      this.deps.redis.subscribe(`${this.keys}:wake:${this.deps.host}`, () => this.drive()),
      this.deps.redis.subscribe(`${this.keys}:changed`, () => this.changes.heard()),
    ]);
    const from = config.autoReduced ? (config.autoReducedFrom ?? config.limit + 1) : -1;
    const [, epoch] = (await this.call("seed", valid(checkLimit(config.limit)), valid(checkCooldownMs(config.cooldownMs)), config.autoReduced ? 1 : 0, from)) ?? [];
    this.joined = String(epoch);
    this.started = true;
    if (this.gate.configured) await this.call("gate", 1);
    this.timers.startHeartbeat(this.deps.refreshMs ?? HOST_REFRESH_MS);
    this.stopWatchingLink = this.deps.redis.onConnectionChange((connected) => {
      // Gave up just before the link dropped: the answer to their leaving waits for Redis, they do not.
      if (!connected) for (const [waiterId, result] of this.leaving) this.answerUnconfirmed(waiterId, result);
      // Back after an outage: says it is alive at once, as its heartbeat would (a host told to stay quiet does not).
      if (connected && (this.deps.refreshMs ?? HOST_REFRESH_MS) > 0) this.drive();
      this.deps.onChange?.();
    });
    await this.status();
  }

  /** The state in Redis this host joined (its epoch key); until seeded, the one it would create. */
  get epoch(): string {
    return this.joined;
  }

  // ── admission ──────────────────────────────────────────────────────────────

  acquire(options: AcquireOptions = NO_OPTIONS): Promise<AcquireResult> {
    if (this.disposed) return Promise.resolve(REMOVED);
    if (options.signal?.aborted) return Promise.resolve(ABORTED);
    const now = this.deps.clock.now();
    const waiterId = `${this.deps.host}.${this.deps.run === undefined ? "" : `${this.deps.run}.`}${++this.arrivals}`;
    const { timeoutMs, signal } = options;
    return new Promise((resolve) => {
      const onAbort = () => this.giveUp(waiterId, ABORTED);
      const deadline = timeoutMs === undefined ? -1 : now + Math.max(0, timeoutMs);
      const zero = timeoutMs !== undefined && timeoutMs <= 0 ? 1 : 0;
      const asked = [deadline, zero, options.ttlMs ?? -1, options.agentId ?? ""];
      const entry: Waiting = { resolve, agentId: options.agentId, deadline: undefined, signal, onAbort, asked };
      this.waiting.set(waiterId, entry);
      // Armed now, on the caller's clock, so its deadline is judged in order with every other event.
      if (timeoutMs !== undefined && timeoutMs > 0) {
        entry.deadline = this.deps.clock.setTimeout(() => this.giveUp(waiterId, TIMED_OUT), timeoutMs);
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      // Only a waiter that stayed queued needs the fallback poll.
      this.background(
        this.call("acquire", waiterId, ...asked).then(() => {
          if (this.waiting.has(waiterId)) this.timers.startPolling();
        }),
      );
    });
  }

  /**
   * A waiter gives up. Whether it was admitted first is Redis's to say: the script that
   * admitted it ran before this one, so its answer has reached this host already and this
   * is a no-op; otherwise it leaves the queue and can never be admitted. While Redis is
   * unreachable the waiter is answered at once (a deadline holds through an outage); if Redis
   * turns out to have admitted it first, that admission is handed back unused when it arrives.
   */
  private giveUp(waiterId: string, result: AcquireResult): void {
    if (!this.deps.redis.connected) this.answerUnconfirmed(waiterId, result);
    else this.leaving.set(waiterId, result);
    this.background(
      this.call("leave", waiterId).then((reply) => {
        this.leaving.delete(waiterId);
        if (reply?.[0] !== 1) return;
        this.gaveUp.delete(waiterId);
        this.answer(waiterId, result);
      }),
    );
  }

  /** Answers a waiter that gave up before Redis confirmed it left: its admission, if Redis made one first, goes back unused. */
  private answerUnconfirmed(waiterId: string, result: AcquireResult): void {
    if (!this.waiting.has(waiterId)) return;
    this.gaveUp.add(waiterId);
    this.answer(waiterId, result);
  }

  private answer(waiterId: string, result: AcquireResult): void {
    const entry = this.waiting.get(waiterId);
    if (!entry) return;
    this.waiting.delete(waiterId);
    if (entry.deadline !== undefined) this.deps.clock.clearTimeout(entry.deadline);
    entry.signal?.removeEventListener("abort", entry.onAbort);
    if (this.waiting.size === 0) this.timers.stopPolling();
    entry.resolve(result);
  }

  /** Answers from Redis for this host's waiters and leases (see inbox.ts). */
  private deliver(inbox: string[]): void {
    for (const raw of inbox) {
      const entry = readInboxEntry(raw);
      if (entry.kind === "timedOut") {
        this.gaveUp.delete(entry.waiterId);
        this.answer(entry.waiterId, TIMED_OUT);
      } else if (entry.kind === "pollGate") {
        this.gate.asked(entry.askId);
      } else if (entry.kind === "expired") {
        this.expired(entry.leaseId);
      } else {
        const { leaseId, admittedAt, enqueuedAt, expiresAt } = entry;
        const waiter = this.waiting.get(leaseId);
        if (!waiter) {
          // Given up during an outage, yet admitted first: nobody took the slot, so it goes back unused.
          if (this.gaveUp.delete(leaseId)) this.background(this.call("undelivered", leaseId, requestId(leaseId)));
          // Otherwise answered already: a resent acquire tells its admission twice. The lease stays held.
          continue;
        }
        const lease: Lease = { leaseId, providerId: this.providerId, admittedAt, enqueuedAt };
        if (waiter.agentId !== undefined) lease.agentId = waiter.agentId;
        if (expiresAt !== undefined) lease.expiresAt = expiresAt;
        this.held.hold(lease, Number(waiter.asked[2]));
        this.waits.record(admittedAt, admittedAt - enqueuedAt);
        this.answer(leaseId, { ok: true, lease });
      }
    }
  }

  private expired(leaseId: string): void {
    const agentId = this.held.get(leaseId)?.agentId;
    this.held.forget(leaseId);
    this.event("lease_expired", say.leaseExpiredMessage(this.providerId, leaseId, agentId));
    this.deps.onLeaseExpired?.(leaseId);
  }

  /**
   * Names this host's waiters, so Redis tells again an admission whose reply was lost. Not
   * sent while Redis is unreachable (a queued drive would say "alive" at a stale instant and
   * hide the outage from the script); the link's return drives at once instead.
   */
  private drive(): void {
    if (!this.disposed && this.deps.redis.connected) this.background(this.call("drive", ...this.waiting.keys(), ...this.gaveUp));
  }

  // ── release ────────────────────────────────────────────────────────────────

  async release(leaseId: string, outcome: LeaseOutcome, retryAfterMs?: number): Promise<boolean> {
    const now = this.deps.clock.now();
    const reply = await this.call("release", leaseId, outcome, retryAfterMs ?? "", requestId(leaseId));
    if (!reply || reply[0] !== 1) return false;
    this.held.forget(leaseId);
    if (outcome === "rate_limited") this.told429(reply, now, retryAfterMs);
    return true;
  }

  /** A request riding on a held lease got a 429: as its `rate_limited` release would, and it stays held. */
  async rateLimitedOn(leaseId: string, retryAfterMs?: number): Promise<boolean> {
    const now = this.deps.clock.now();
    const reply = await this.call("rateLimitedOn", leaseId, retryAfterMs ?? "");
    if (reply?.[0] !== 1) return false;
    this.told429(reply, now, retryAfterMs);
    return true;
  }

  /** The history of a 429 the script judged: `[1, extended, pausedUntil, reduced, limit]`. */
  private told429([, extended, pausedUntil, reduced, limit]: number[], now: number, retryAfterMs: number | undefined): void {
    this.event("rate_limited", say.rateLimitedMessage(this.providerId, retryAfterMs));
    if (extended === 1) this.event("paused", say.pausedMessage(this.providerId, (pausedUntil as number) - now));
    if (reduced !== 1) return;
    this.noticeDismissed = false;
    this.background(this.status());
    this.event("reduced", say.reductionNotice(this.providerId, (limit as number) + 1, limit as number));
  }

  /**
   * The early pause (SPEC §6: the provider's headers say no requests are left until `untilMs`):
   * never shortens a longer pause, lowers nothing; a pause it starts shows `reason`.
   */
  async pauseUntil(untilMs: number, reason: string): Promise<void> {
    const now = this.deps.clock.now();
    const reply = await this.call("pauseUntil", untilMs, reason);
    if (reply?.[0] === 1) this.event("paused", say.earlyPauseMessage(this.providerId, (reply[1] as number) - now));
  }

  async returnUndelivered(leaseId: string): Promise<boolean> {
    const returned = (await this.call("undelivered", leaseId, requestId(leaseId)))?.[0] === 1;
    if (returned) this.held.forget(leaseId);
    return returned;
  }

  /** Extends a TTL lease by its ttl from now (on Redis's clock); undefined once it is not held. */
  async heartbeat(leaseId: string): Promise<Lease | undefined> {
    const reply = await this.call("heartbeat", leaseId);
    if (reply?.[0] !== 1) return undefined;
    const known = this.held.get(leaseId) ?? { leaseId, providerId: this.providerId, admittedAt: -1, enqueuedAt: -1 };
    if (reply[1] === -1) return known;
    const renewed: Lease = { ...known, expiresAt: reply[1] as number };
    this.held.hold(renewed, undefined);
    return renewed;
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
  async adopt(leases: PersistedLease[]): Promise<void> {
    if (leases.length === 0) return;
    const reply = await this.call("adopt", ...HostLeases.adoptArgs(leases));
    if (!reply) return;
    leases.forEach((lease, i) => {
      const { leaseId, agentId } = lease;
      // A new waiter's id must not be one this host held before a restart.
      const arrival = leaseId.startsWith(`${this.deps.host}.`) ? Number(leaseId.slice(this.deps.host.length + 1)) : NaN;
      if (arrival > this.arrivals) this.arrivals = arrival;
      if (Number(reply[i]) === EXPIRED) {
        this.event("lease_expired", say.leaseExpiredMessage(this.providerId, leaseId, agentId));
        this.deps.onLeaseExpired?.(leaseId);
      } else {
        this.held.adopted(lease, Number(reply[i]));
      }
    });
  }

  // ── settings ───────────────────────────────────────────────────────────────

  async setLimit(limit: number): Promise<void> {
    await this.call("setLimit", valid(checkLimit(limit)));
    this.noticeDismissed = false;
    await this.status(); // the newest settings this host saw, to re-seed a Redis that lost them
  }

  async setCooldown(cooldownMs: number): Promise<void> {
    await this.call("setCooldown", valid(checkCooldownMs(cooldownMs)));
    await this.status();
  }

  async resume(): Promise<void> {
    if ((await this.call("resume"))?.[0] === 1) this.event("resumed", say.resumedMessage(this.providerId));
  }

  /** This host's usage gate (SPEC §7: it stays on each host), polled when its waiter heads the queue; undefined: none. */
  setUsageProbe(gate: GateProbe | undefined): void {
    this.gate.set(gate);
    if (this.started) this.background(this.call("gate", gate ? 1 : 0));
  }

  /** On Redis's clock. */
  usageReading(): UsageGateReading | undefined {
    return this.gate.reading();
  }

  /** The banner's dismissal stays on this host (SPEC §7). */
  dismissNotice(): void {
    this.noticeDismissed = true;
  }

  // ── reading ────────────────────────────────────────────────────────────────

  async config(): Promise<PoolConfig> {
    const { limit, cooldownMs, autoReduced, autoReducedFrom } = await this.status();
    return { limit, cooldownMs, autoReduced, ...(autoReduced ? { autoReducedFrom } : {}), noticeDismissed: this.noticeDismissed };
  }

  /** Every host's held leases and waiters, in FIFO order, on Redis's clock. */
  async leaseList(): Promise<SharedLeaseList> {
    const reply = await this.call("leases");
    if (!reply) throw new Error(`shared provider ${this.providerId} was disposed`);
    return readLeaseList(reply);
  }

  /** The last entry Redis gave (what status() would answer while it is unreachable), without asking. */
  lastKnownStatus(): SharedStatusEntry | undefined {
    if (!this.lastStatus || this.deps.redis.connected) return this.lastStatus;
    return unreachableEntry(this.lastStatus, this.waiting.size);
  }

  async status(): Promise<SharedStatusEntry> {
    // Asking Redis would wait for it to come back.
    if (!this.deps.redis.connected && this.lastStatus) return unreachableEntry(this.lastStatus, this.waiting.size);
    const now = this.deps.clock.now();
    const reply = await this.call("status");
    if (!reply) throw new Error(`shared provider ${this.providerId} was disposed`);
    this.settingsVersion = reply[9] as number;
    const host = { noticeDismissed: this.noticeDismissed, waits: this.waits.percentiles(now), usageGate: this.gate.reading() };
    this.lastStatus = statusEntry(this.providerId, reply, host);
    return this.lastStatus;
  }

  /** Resolves once every operation this host sent has been answered and its answers handled. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /**
   * Answers this host's waiters with `removed` and stops its timers; Redis keeps the provider.
   * Its leases are handed back as failures, unless `keepLeases`: a host stopping to restart keeps
   * them (it adopts them again when back, or Redis frees them 10 s after its last heartbeat).
   */
  async dispose({ keepLeases = false }: { keepLeases?: boolean } = {}): Promise<void> {
    if (this.disposed) return;
    const waiterIds = [...this.waiting.keys()];
    const departs = keepLeases ? [] : [this.call("depart")];
    try {
      await Promise.all([...waiterIds.map((waiterId) => this.call("leave", waiterId)), ...departs]);
    } finally {
      // A link already closed rejects the calls above; the host's own side is cleaned up regardless.
      this.disposed = true;
      this.gate.set(undefined);
      for (const waiterId of waiterIds) this.answer(waiterId, REMOVED);
      this.timers.stop();
      this.changes.stop();
      this.stopWatchingLink?.();
    }
    await Promise.all(this.unsubscribe.map((unsubscribe) => unsubscribe()));
    await this.settled();
  }

  // ── the link ───────────────────────────────────────────────────────────────

  /** Runs one operation at this instant; its answers and wake times are handled before it resolves. */
  private call(operation: Operation, ...args: (string | number)[]): Promise<number[] | undefined> {
    if (this.disposed) return Promise.resolve(undefined);
    const sent = this.send(operation, this.deps.clock.now(), args);
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent)).catch(() => {});
    return sent;
  }

  /** An operation Redis refused for a lost epoch changed nothing: it is sent again once re-registered. */
  private async send(operation: Operation, now: number, args: (string | number)[]): Promise<number[]> {
    const run = () => this.deps.redis.run([operation, this.keys, this.deps.host, now, this.joined, ...args]);
    let reply = await run();
    if (reply[0][0] === STALE_EPOCH) {
      await this.rejoin();
      reply = await run();
    }
    return this.handle(reply, READS.has(operation));
  }

  private rejoin(): Promise<void> {
    this.rejoining ??= this.reregister().finally(() => (this.rejoining = undefined));
    return this.rejoining;
  }

  /**
   * Redis lost the state this host joined: it re-registers the leases it holds, offers the
   * newest settings it saw, and enqueues its waiters again (FIFO across hosts starts afresh).
   */
  private async reregister(): Promise<void> {
    // A Redis that lost its data holds no admission for a waiter that gave up during the outage.
    this.gaveUp.clear();
    const status = this.lastStatus;
    const settings = status
      ? [this.settingsVersion, status.limit, status.cooldownMs, status.autoReduced ? 1 : 0, status.autoReducedFrom ?? -1]
      : [-1, 1, 0, 0, -1];
    const leases = this.held.scriptArgs();
    const now = this.deps.clock.now();
    const reply = await this.deps.redis.run(["rejoin", this.keys, this.deps.host, now, this.joined, randomUUID(), ...settings, ...leases]);
    const [, epoch, late] = reply[0] as unknown as [number, string, number];
    this.joined = epoch;
    if (late > 0) {
      this.deps.log?.(`${late} lease(s) of ${this.deps.host} on shared provider ${this.providerId} re-registered after the 10 s window; they may exceed the limit until released`);
    }
    this.handle(reply);
    if (this.gate.configured) this.handle(await this.deps.redis.run(["gate", this.keys, this.deps.host, now, this.joined, 1]));
    for (const [waiterId, { asked }] of this.waiting) {
      this.handle(await this.deps.redis.run(["acquire", this.keys, this.deps.host, now, this.joined, waiterId, ...asked]));
    }
  }

  /** `read`: the operation only read the state; it tells of a change only if it delivered something. */
  private handle([result, inbox, wakeAt, hostExpiresAt]: ScriptReply, read = false): number[] {
    this.deliver(inbox);
    this.timers.at(wakeAt);
    this.timers.hostExpiry(hostExpiresAt, this.waiting.size > 0);
    if (!read || inbox.length > 0) this.deps.onChange?.();
    return result;
  }

  private background(work: Promise<unknown>): void {
    work.catch((error: unknown) => this.deps.onError?.(error instanceof Error ? error : new Error(String(error))));
  }

  private event(kind: HistoryKind, message: string): void {
    this.deps.onEvent?.({ kind, message });
  }
}
