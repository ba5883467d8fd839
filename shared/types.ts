// The wire types of SPEC §1–3. Every transport (HTTP, IPC, CLI, proxy) speaks these. Types of
// inputs and settings come from their schemas (shared/schemas.ts), the status entry from its own
// (shared/status-entry.ts); the other answers are declared here.
import type { BreakerSettings, HeldLease, RouteKey } from "./schemas";
import type { ConcurrencyStatusEntry } from "./status-entry";

export type { ConcurrencyStatusEntry, PauseKind, PlanWindow, UpstreamBucket, UpstreamFailures, UpstreamLimits, UsageGateReading, WindowStatus } from "./status-entry";
export type { AgentEntry } from "./agents";

export type {
  BreakerSettings,
  HeldLease,
  LeaseOutcome,
  ProviderConfigView,
  RouteKey,
  RouteOutcome,
  UsageGateConfig,
} from "./schemas";

export interface ConcurrencyStatusResponse {
  providers: ConcurrencyStatusEntry[];
  notices?: string[];
  /** An addition: whether this host reaches Redis (SPEC §7), only when Redis is configured. */
  redis?: RedisState;
}

/** SPEC §3 `GET /health` `redis`: never the URL, which may carry a password. */
export interface RedisState {
  connected: boolean;
  error?: string;
}

export interface LimitView {
  providerId: string;
  limit: number;
}

export interface CooldownView {
  providerId: string;
  cooldownMs: number;
}

export interface WaitingView {
  waiterId: string;
  agentId?: string;
  position: number;
  since: number;
  /** SPEC §7: the host the waiter is on, for a shared provider. */
  host?: string;
  /** SPEC §8: a `headroom run --resume` waiting out a window; goes before other waiters. */
  resuming?: true;
  /** Why a resuming waiter waits: `resumes after the 5-hour window resets at 15:00`. */
  waitReason?: string;
}

/** What refused a request riding a held lease (SPEC §8): `headroom run --resume` waits it out. */
export type StopKind = "window" | "budget";

/**
 * SPEC §3 leases: a held lease plus, for a shared provider, the host that holds it (§7), and
 * `stoppedBy` once a request riding it was refused by a used-up window or a budget (§8).
 */
export type HeldLeaseView = HeldLease & { host?: string; stoppedBy?: StopKind };

export interface LeasesView {
  held: HeldLeaseView[];
  waiting: WaitingView[];
}

export interface Admission {
  leaseId: string;
  providerId: string;
  admittedAt: number;
  expiresAt?: number;
}

export type RouteState = "closed" | "open" | "half-open";

export interface RouteEntry extends RouteKey {
  state: RouteState;
  remainingMs: number;
  openUntil?: number;
  reason: string;
  consecutiveFailures: number;
  probeOwner?: string;
}

export type RouteRefusal =
  | { kind: "open"; remainingMs: number; reason: string }
  | { kind: "probing"; reason: string };

export type RouteAdmission = { admitted: true } | { admitted: false; block: RouteRefusal };

export interface RoutesView {
  routes: RouteEntry[];
  settings: BreakerSettings;
}

export type HistoryKind =
  | "rate_limited"
  | "paused"
  | "resumed"
  | "reduced"
  | "restored"
  | "route_opened"
  | "route_half_open"
  | "route_closed"
  | "lease_expired"
  | "lease_released_by_hand"
  | "provider_added"
  | "provider_removed"
  | "provider_shared"
  | "provider_unshared"
  | "watchdog"
  | "window_warning"
  | "window_exhausted"
  | "window_reset"
  | "overage_started"
  | "budget_warning"
  | "budget_reached";

export interface HistoryEvent {
  at: number;
  kind: HistoryKind;
  providerId?: string;
  route?: RouteKey;
  message: string;
}

export type ErrorCode =
  | "invalid_input"
  | "unauthorized"
  | "forbidden_host"
  | "forbidden_origin"
  | "unknown_provider"
  | "unknown_lease"
  | "too_many_providers"
  | "queue_timeout"
  | "payload_too_large"
  | "unavailable"
  | "not_found"
  | "method_not_allowed"
  // SPEC §10: connecting an agent.
  | "unknown_agent"
  | "config_conflict"
  | "config_unparsable"
  | "config_unwritable";

/** One provider's samples in `GET /series` (SPEC §4): parallel arrays, oldest first. */
export interface ProviderSeries {
  at: number[];
  limit: number[];
  active: number[];
  queued: number[];
  recycling: number[];
}

export interface SeriesResponse {
  stepMs: number;
  providers: Record<string, ProviderSeries>;
}

/** What the window needs to show agents how to connect. */
export interface HostInfo {
  apiUrl: string;
  proxyUrl?: string;
  version: string;
  /** SPEC §3: this host's name (SPEC §7: the one it shares providers under on Redis). */
  hostName: string;
}
