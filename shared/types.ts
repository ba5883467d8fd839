// The wire types of SPEC §1–3. Every transport (HTTP, IPC, CLI, proxy) speaks these.

export type LeaseOutcome = "success" | "failure" | "rate_limited" | "abandoned";
export type RouteOutcome = "success" | "failure" | "neutral";

export interface UsageGateConfig {
  url: string;
  pollMs: number;
  headers?: Record<string, string>;
}

export interface UsageGateReading {
  ok: boolean;
  concurrentSessions?: number;
  error?: string;
  checkedAt: number;
}

export interface ConcurrencyStatusEntry {
  providerId: string;
  limit: number;
  active: number;
  queued: number;
  paused: boolean;
  pausedUntil?: number;
  cooldownMs: number;
  autoReduced: boolean;
  autoReducedFrom?: number;
  notice?: string;
  noticeDismissed: boolean;
  recycling: number;
  waitP50Ms?: number;
  waitP95Ms?: number;
  usageGate?: UsageGateReading;
  /** Only when paused: why, in words. */
  pauseReason?: string;
  /** SPEC §6: the provider's own rate-limit headers, newest reading. */
  upstreamLimits?: UpstreamLimits;
  /** An addition for the window: the upstream base URL when one is set, so a push carries it. */
  upstream?: string;
}

/** `resetAt` in epoch ms. */
export interface UpstreamBucket {
  limit?: number;
  remaining?: number;
  resetAt?: number;
}

export interface UpstreamLimits {
  requests?: UpstreamBucket;
  tokens?: UpstreamBucket;
  inputTokens?: UpstreamBucket;
  outputTokens?: UpstreamBucket;
  seenAt: number;
}

export interface ConcurrencyStatusResponse {
  providers: ConcurrencyStatusEntry[];
  notices?: string[];
}

export interface LimitView {
  providerId: string;
  limit: number;
}

export interface CooldownView {
  providerId: string;
  cooldownMs: number;
}

export interface ProviderConfigView {
  providerId: string;
  limit: number;
  cooldownMs: number;
  upstream?: string;
  usageGate?: UsageGateConfig;
  /** SPEC §1: the proxy's wait for response headers and the longest silence in a stream (default 300000). */
  responseTimeoutMs?: number;
}

export interface HeldLeaseView {
  leaseId: string;
  agentId?: string;
  admittedAt: number;
  expiresAt?: number;
}

export interface WaitingView {
  waiterId: string;
  agentId?: string;
  position: number;
  since: number;
}

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

export interface RouteKey {
  targetId: string;
  runtimeId: string;
  modelId: string;
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

export interface BreakerSettings {
  threshold: number;
  cooldownMs: number;
}

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
  | "watchdog";

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
  | "unknown_provider"
  | "unknown_lease"
  | "queue_timeout"
  | "payload_too_large"
  | "unavailable"
  | "not_found"
  | "method_not_allowed";

export interface ErrorBody {
  error: { code: ErrorCode; message: string };
}

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
