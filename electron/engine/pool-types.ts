// The engine's view of one provider: the contract between the pure pool and the service.
import type {
  ConcurrencyStatusEntry,
  HeldLease,
  HistoryEvent,
  LeaseOutcome,
  LeasesView,
  UpstreamLimits,
  UsageGateReading,
} from "../../shared/types";
import type { PoolConfig } from "../../shared/provider-settings";
import type { Clock } from "./clock";
import type { PoolWindows } from "./window-rules";

/** The persisted part of a provider's state (SPEC §1): the engine's `Pick` of the provider's settings record. */
export type { PoolConfig } from "../../shared/provider-settings";

/** Result of one usage-gate poll; the pool applies the 2 s fail-open rule itself. */
export type UsageProbe = (signal: AbortSignal) => Promise<number>;

/** A usage gate's configuration (SPEC §1): the probe, and how long a busy answer holds the queue before the next poll. */
export interface GateProbe {
  probe: UsageProbe;
  pollMs: number;
}

export interface PoolDeps {
  providerId: string;
  clock: Clock;
  /** Lease ids; injected so tests are deterministic. */
  newId: () => string;
  /** Anything visible in status() changed. Called synchronously; callers coalesce. */
  onChange?: () => void;
  /** The persisted config changed (auto-reduce, manual limit, dismissal...). */
  onConfigChange?: (config: PoolConfig) => void;
  /** Something worth keeping in the activity history. */
  onEvent?: (event: Omit<HistoryEvent, "at" | "providerId">) => void;
  /** Held leases changed (admission, release, heartbeat, expiry): the service persists them. */
  onLeasesChange?: () => void;
  /** A TTL lease ran out (or was restored already expired): whoever indexes lease ids forgets it. */
  onLeaseExpired?: (leaseId: string) => void;
  /** Watchdog and other diagnostics. */
  log?: (message: string, state: unknown) => void;
  usageProbe?: GateProbe;
  /**
   * Whether an agent had an admission in the last 10 minutes, so a window hold lets its proxy
   * requests through (SPEC §8). The hook for agent identity (SPEC §9); without it the pool
   * goes by its own admissions of the same `agentId`.
   */
  recentAgent?: (agentId: string) => boolean;
  watchdogMs?: number; // default 30_000
}

export interface AcquireOptions {
  agentId?: string;
  waiterId?: string;
  /** undefined = wait until given up; 0 = only if a slot is free now. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Lease time-to-live; undefined = no expiry (proxy leases: the connection is the lease). */
  ttlMs?: number;
  /** A gated proxy request: a window hold lets it through when its agent is at work (SPEC §8). */
  proxied?: boolean;
  /**
   * A `headroom run --resume` waiting out a window (SPEC §8): admitted before every other
   * waiter, in the order they stopped, after the reset's probe; never held by the hold.
   */
  resume?: boolean;
  /**
   * SPEC §8 `waitForResetMs` of a gated proxy request: one that arrives while a used-up window
   * pauses the provider (its reset this near, or the proxy would have refused it) waits for the
   * reset, and is answered with a timeout when a refused probe moves the reset further than
   * this, or 60 s past the latest reset without an admission.
   */
  nearResetMs?: number;
}

export interface Lease {
  leaseId: string;
  providerId: string;
  agentId?: string;
  admittedAt: number;
  /** When the waiter entered the queue (== admittedAt for an immediate admission). */
  enqueuedAt: number;
  expiresAt?: number;
}

type AcquireFailure =
  | { kind: "timeout" }
  | { kind: "aborted" }
  | { kind: "removed" }; // the provider was deleted while waiting

export type AcquireResult = { ok: true; lease: Lease } | { ok: false; failure: AcquireFailure };

/** A held lease as a restart needs it: the wire view plus its own time-to-live. */
export interface PersistedLease extends HeldLease {
  ttlMs?: number;
}

export interface ProviderPool {
  readonly providerId: string;
  acquire(options?: AcquireOptions): Promise<AcquireResult>;
  /** The lease when a slot is free now with nobody queued; a shared provider's pool has none (Redis decides). */
  admitNow?(options: AcquireOptions): Lease | undefined;
  /** false when the lease is not held (already released, expired, unknown). */
  release(leaseId: string, outcome: LeaseOutcome, retryAfterMs?: number): boolean;
  /** The admission could not be delivered (client left): the slot returns at once, no cooldown. */
  returnUndelivered(leaseId: string): boolean;
  /**
   * A request riding on a held lease was answered 429 (SPEC §6 "Lease-scoped requests"): pause
   * and maybe reduce as its release would, the lease staying held. false when it is not held.
   */
  rateLimitedOn(leaseId: string, retryAfterMs?: number): boolean;
  /** The provider's rate-limit headers (SPEC §6); a successful answer saying 0 requests left pauses until the reset. */
  noteUpstreamLimits(reading: UpstreamLimits, fromSuccess: boolean): void;
  /** Its plan windows (SPEC §8): readings, the refusal while one is used up, the hold. */
  readonly windows: PoolWindows;
  /** Extends a TTL lease by its ttl from now; undefined when not held. */
  heartbeat(leaseId: string): Lease | undefined;
  isHeld(leaseId: string): boolean;
  /** Re-adopts a lease held before a host restart (counts against the limit at once). */
  restoreLease(lease: PersistedLease, ttlMs?: number): void;
  heldLeases(): PersistedLease[];
  setLimit(limit: number): void; // manual: clears auto-reduction
  setCooldown(cooldownMs: number): void;
  resume(): void;
  dismissNotice(): void;
  /** SPEC §1 "Accept": clears the reduction and its notice, the limit staying where it is. */
  acceptReduction(): void;
  setUsageProbe(probe: GateProbe | undefined): void;
  config(): PoolConfig;
  status(): ConcurrencyStatusEntry;
  usageReading(): UsageGateReading | undefined;
  leases(): LeasesView;
  /**
   * Answers every waiter with `removed`, clears timers. `keepLeases`: the host is stopping and
   * will restore its leases (a shared provider then leaves them in Redis, SPEC §7).
   */
  dispose(options?: { keepLeases?: boolean }): void;
}
