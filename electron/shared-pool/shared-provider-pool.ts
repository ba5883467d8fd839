// A shared provider (SPEC §7) as the service sees every provider: the engine's ProviderPool.
// SharedPool answers with promises, one round trip each; the service's questions are mostly
// synchronous (a release is answered from what this host knows, a status read never waits for
// Redis). So this keeps what the host knows — the leases it holds (lease-account.ts), the last
// status and lease list Redis gave (status-cache.ts) — answers from it at once, and sends each
// change to Redis behind it, in order, once joined. Times cross here (redis-time.ts):
// SharedPool speaks Redis's clock, the service its own.
import type { ConcurrencyStatusEntry, HistoryEvent, LeaseOutcome, LeasesView, UpstreamLimits, UsageGateReading } from "../../shared/types";
import type { Clock } from "../engine/clock";
import * as say from "../engine/pool-messages";
import type { AcquireOptions, AcquireResult, GateProbe, Lease, PersistedLease, PoolConfig, ProviderPool } from "../engine/pool-types";
import { earlyPause } from "../engine/rate-limit-policy";
import { ABORTED, REMOVED, TIMED_OUT } from "../engine/waiter-queue";
import { releaseForgotten } from "./forgotten-leases";
import { LeaseAccount } from "./lease-account";
import { hostLease, redisLease } from "./redis-time";
import type { SharedHub, SharedLink } from "./shared-hub";
import { SharedPool, type SharedStatusEntry } from "./shared-pool";
import { connectingEntry, entryConfig, shownEntry } from "./shared-status";
import { SharedWindows } from "./shared-windows";
import { StatusCache } from "./status-cache";
import { WindowHold } from "./window-hold";
import { timeLeft, untilReady } from "./until-ready";

export interface SharedProviderDeps {
  providerId: string;
  hub: SharedHub;
  /** The host's clock: every time this pool answers with is on it. */
  clock: Clock;
  onChange?: () => void;
  onConfigChange?: (config: PoolConfig) => void;
  onEvent?: (event: Omit<HistoryEvent, "at" | "providerId">) => void;
  onLeasesChange?: () => void;
  onLeaseExpired?: (leaseId: string) => void;
  log?: (message: string, state?: unknown) => void;
  /** The random part of this host's lease ids (lease-ids.ts); shared ones read `<host>.<id>`. */
  newId: () => string;
  /** Leases this host holds that Redis must count: restored from disk, or moved from a local pool. */
  adopt?: PersistedLease[];
  /** How often the status and lease list are read again when nothing told this host of a change. */
  refreshMs?: number;
  /** This host's usage gate for the provider (SPEC §7: the configuration stays on each host). */
  usageProbe?: GateProbe;
}

const REFRESH_MS = 2_000;

export class SharedProviderPool implements ProviderPool {
  readonly providerId: string;
  /** Resolves once joined (leases adopted); undefined when disposed first. */
  private readonly joined: Promise<SharedPool | undefined>;
  /** Resolves when disposed: an admission still waiting for the join is answered `removed` then. */
  private readonly left: Promise<undefined>;
  private leave!: () => void;
  private shared: SharedPool | undefined;
  /** This host's name in shared state, once joined. */
  private host = "";
  private settings: PoolConfig;
  private readonly cache: StatusCache;
  private readonly account: LeaseAccount;
  private upstreamLimits: UpstreamLimits | undefined;
  private usageProbe: GateProbe | undefined;
  private disposed = false;
  private stopWatching: (() => void) | undefined;
  /** Plan windows, their pause and the probe, shared through Redis (shared-windows.ts). */
  readonly windows: SharedWindows;
  private readonly hold: WindowHold;

  constructor(
    config: PoolConfig,
    private readonly deps: SharedProviderDeps,
  ) {
    this.providerId = deps.providerId;
    this.settings = { ...config };
    this.usageProbe = deps.usageProbe;
    this.cache = new StatusCache({
      clock: deps.clock,
      refreshMs: deps.refreshMs ?? REFRESH_MS,
      offsetMs: () => deps.hub.offsetMs,
      read: () => {
        const shared = this.shared;
        if (!shared || this.disposed) return undefined;
        return Promise.all([shared.status(), shared.leaseList()]);
      },
      taken: (previous) => {
        this.windows.fromRedis(this.cache.last?.sightings ?? []);
        const before = this.configOf(previous);
        const after = this.config();
        if (JSON.stringify(before) !== JSON.stringify(after)) this.deps.onConfigChange?.(after);
        this.deps.onChange?.();
      },
      log: (message) => this.deps.log?.(`shared provider ${this.providerId}: ${message}`),
    });
    this.account = new LeaseAccount(deps.adopt ?? []);
    this.stopWatching = deps.hub.onConnectionChange(() => deps.onChange?.());
    this.windows = new SharedWindows({
      clock: deps.clock,
      providerId: deps.providerId,
      send: (usedUp, sightings, shown, answered) => {
        const resetsAt = usedUp?.resetsAt === undefined ? undefined : usedUp.resetsAt + deps.hub.offsetMs;
        const verdict = usedUp && { label: usedUp.label, ...(resetsAt === undefined ? {} : { resetsAt }) };
        this.background(async (shared) => {
          await shared.noteWindow(verdict, sightings, answered);
          await this.cache.afterNextRead();
          shown();
        });
      },
      redis: () => this.cache.last?.window,
      changed: () => {
        this.hold.check();
        deps.onChange?.();
      },
      event: (kind, message) => deps.onEvent?.({ kind, message }),
    });
    this.hold = new WindowHold(deps.clock, (now) => this.windows.holdReason(now));
    this.left = new Promise((resolve) => (this.leave = () => resolve(undefined)));
    const joining = deps.hub.ready().then((link) => this.join(link));
    deps.hub.track(joining);
    this.joined = Promise.race([joining, this.left]);
  }

  private async join(link: SharedLink): Promise<SharedPool | undefined> {
    if (this.disposed) return undefined;
    const shared = new SharedPool({
      providerId: this.providerId,
      host: link.host,
      newId: this.deps.newId,
      redis: link.link,
      keyPrefix: link.prefix,
      clock: link.clock,
      offsetMs: () => this.deps.hub.offsetMs,
      onEvent: (event) => this.deps.onEvent?.(event),
      onChange: () => this.cache.refresh(),
      onLeaseExpired: (leaseId) => {
        this.account.expired(leaseId);
        this.deps.onLeaseExpired?.(leaseId);
        this.deps.onLeasesChange?.();
      },
      log: (message) => this.deps.log?.(message),
      onError: (error) => this.deps.log?.(`shared provider ${this.providerId}: ${error.message}`),
    });
    shared.setUsageProbe(this.usageProbe);
    await shared.start(this.settings);
    const moved = this.account.toAdopt();
    if (moved.length > 0) await shared.adopt(moved.map((lease) => redisLease(lease, this.deps.hub.offsetMs)));
    this.account.adopted(moved);
    await releaseForgotten(shared, link.host, (message) => this.deps.log?.(message));
    this.host = link.host;
    this.shared = shared;
    if (this.disposed) {
      await shared.dispose();
      return undefined;
    }
    this.cache.refresh();
    return shared;
  }

  // ── admission ──────────────────────────────────────────────────────────────

  acquire(options: AcquireOptions = {}): Promise<AcquireResult> {
    return this.windows.admitting(options, (asked) => this.admit(asked));
  }

  private async admit(options: AcquireOptions): Promise<AcquireResult> {
    const askedAt = this.deps.clock.now();
    const shared = this.shared ?? (await untilReady(this.joined, this.deps.clock, options));
    if (shared === "aborted") return ABORTED;
    if (shared === "timeout") return TIMED_OUT;
    if (!shared || this.disposed) return REMOVED;
    const passage = await this.hold.pass(timeLeft(options, this.deps.clock.now() - askedAt));
    if (passage !== "go") return passage === "timeout" ? TIMED_OUT : passage === "aborted" ? ABORTED : REMOVED;
    if (this.disposed) return REMOVED;
    const result = await shared.acquire(timeLeft(options, this.deps.clock.now() - askedAt));
    if (!result.ok) return result;
    if (this.disposed) {
      // Admitted in Redis as the provider was made local or removed: the slot goes back unused.
      await shared.returnUndelivered(result.lease.leaseId);
      return REMOVED;
    }
    this.hold.admitted(options.agentId);
    this.account.keepTtl(result.lease.leaseId, options.ttlMs);
    const lease = hostLease(result.lease, this.deps.hub.offsetMs);
    this.cache.admittedHere(lease, this.host);
    this.deps.onLeasesChange?.();
    return { ok: true, lease };
  }

  // ── leases ─────────────────────────────────────────────────────────────────

  isHeld(leaseId: string): boolean {
    return this.account.isHeld(leaseId, (id) => this.shared?.isHeld(id) ?? false);
  }

  release(leaseId: string, outcome: LeaseOutcome, retryAfterMs?: number): boolean {
    return this.letGo(leaseId, (shared) => shared.release(leaseId, outcome, retryAfterMs));
  }

  returnUndelivered(leaseId: string): boolean {
    return this.letGo(leaseId, (shared) => shared.returnUndelivered(leaseId));
  }

  /** Answered at once from this host's own account; Redis learns of it in order (SPEC §7: releases are kept while it is unreachable). */
  private letGo(leaseId: string, send: (shared: SharedPool) => Promise<boolean>): boolean {
    if (!this.isHeld(leaseId)) return false;
    this.account.releasing(leaseId);
    this.cache.releasedHere(leaseId);
    this.background((shared) => send(shared).finally(() => this.account.released(leaseId)));
    this.deps.onLeasesChange?.();
    this.deps.onChange?.();
    return true;
  }

  rateLimitedOn(leaseId: string, retryAfterMs?: number): boolean {
    if (!this.isHeld(leaseId)) return false;
    this.background((shared) => shared.rateLimitedOn(leaseId, retryAfterMs));
    return true;
  }

  heartbeat(leaseId: string): Lease | undefined {
    const held = this.isHeld(leaseId) ? this.heldLeases().find((lease) => lease.leaseId === leaseId) : undefined;
    if (!held) return undefined;
    this.background((shared) => shared.heartbeat(leaseId));
    const { ttlMs = this.account.ttlOf(leaseId), ...view } = held;
    const lease: Lease = { ...view, providerId: this.providerId, enqueuedAt: view.admittedAt };
    return ttlMs === undefined ? lease : { ...lease, expiresAt: this.deps.clock.now() + ttlMs };
  }

  restoreLease(lease: PersistedLease, ttlMs?: number): void {
    const restored = ttlMs === undefined ? lease : { ...lease, ttlMs };
    if (this.shared) this.background((shared) => shared.adopt([redisLease(restored, this.deps.hub.offsetMs)]));
    else this.account.restoredBeforeJoining(restored);
    this.account.keepTtl(lease.leaseId, restored.ttlMs);
  }

  heldLeases(): PersistedLease[] {
    return this.account.held(this.shared?.heldLeases() ?? [], this.deps.hub.offsetMs);
  }

  leases(): LeasesView {
    return this.cache.list;
  }

  // ── settings ───────────────────────────────────────────────────────────────

  setLimit(limit: number): void {
    this.settings = { ...this.config(), limit, autoReduced: false, noticeDismissed: false };
    delete this.settings.autoReducedFrom;
    this.changed((shared) => shared.setLimit(limit));
  }

  setCooldown(cooldownMs: number): void {
    this.settings = { ...this.config(), cooldownMs };
    this.changed((shared) => shared.setCooldown(cooldownMs));
  }

  resume(): void {
    this.windows.lifted();
    this.background(async (shared) => {
      await shared.resume();
      this.cache.refresh();
    });
  }

  /** Accepting is setting the lowered limit by hand: the same change on Redis. */
  acceptReduction(): void {
    if (this.config().autoReduced) this.setLimit(this.config().limit);
  }

  dismissNotice(): void {
    this.settings = { ...this.config(), noticeDismissed: true };
    this.changed(async (shared) => shared.dismissNotice());
  }

  /** The host whose waiter heads the queue polls its own gate (SPEC §7); a change applies once joined. */
  setUsageProbe(probe: GateProbe | undefined): void {
    this.usageProbe = probe;
    this.shared?.setUsageProbe(probe);
  }

  /** The rate-limit headers stay this host's (SPEC §7); the early pause they may call for is shared. */
  noteUpstreamLimits(reading: UpstreamLimits, fromSuccess: boolean): void {
    this.upstreamLimits = reading;
    const now = this.deps.clock.now();
    const early = fromSuccess ? earlyPause(reading, now) : undefined;
    if (early) {
      const until = early.until + this.deps.hub.offsetMs;
      this.background((shared) => shared.pauseUntil(until, say.pausedByUpstreamHeaders(early.words)));
    }
    this.deps.onChange?.();
  }

  // ── reading ────────────────────────────────────────────────────────────────

  config(): PoolConfig {
    return this.configOf(this.cache.last);
  }

  /** The settings a status shows, with this host's own dismissal; before any status, those it would seed. */
  private configOf(last: SharedStatusEntry | undefined): PoolConfig {
    return last ? entryConfig(last, this.settings.noticeDismissed) : { ...this.settings };
  }

  status(): ConcurrencyStatusEntry {
    const last = this.cache.last;
    const entry = shownEntry(last ?? connectingEntry(this.providerId, this.settings, this.heldLeases().length), {
      now: this.deps.clock.now(),
      held: this.hold.size,
      holdReason: this.hold.waitReason(),
      unreachable: last !== undefined && !this.deps.hub.answering,
    });
    entry.noticeDismissed = this.settings.noticeDismissed;
    if (this.upstreamLimits) entry.upstreamLimits = this.upstreamLimits;
    return Object.assign(entry, this.windows.statusFields());
  }

  usageReading(): UsageGateReading | undefined {
    const reading = this.shared?.usageReading();
    return reading && { ...reading, checkedAt: reading.checkedAt - this.deps.hub.offsetMs };
  }

  /** Leaves the shared provider: this host's waiters are answered `removed`, its leases handed back in Redis unless kept. */
  dispose({ keepLeases = false }: { keepLeases?: boolean } = {}): void {
    if (this.disposed) return;
    this.disposed = true;
    this.leave();
    this.stopWatching?.();
    this.hold.dispose();
    this.windows.dispose();
    this.cache.stop();
    const shared = this.shared;
    if (shared) this.deps.hub.track(shared.settled().then(() => shared.dispose({ keepLeases })));
  }

  // ── internals ──────────────────────────────────────────────────────────────

  /** A settings change: answered from the new settings now, saved locally, then sent. */
  private changed(send: (shared: SharedPool) => Promise<void>): void {
    this.deps.onConfigChange?.(this.config());
    this.background(send);
    this.deps.onChange?.();
  }

  /** Runs once joined, in the order asked; a failure is logged (Redis refused it), never thrown at a caller. */
  private background(work: (shared: SharedPool) => Promise<unknown>): void {
    const done = this.joined.then((shared) => (shared ? work(shared) : undefined));
    done.catch((error: unknown) => this.deps.log?.(`shared provider ${this.providerId}: ${String(error)}`));
  }
}
