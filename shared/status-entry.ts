// One provider's entry in the status (SPEC §1 `GET /concurrency/status`, the window's push), and
// the only list of its fields: the engine's pools build it, every transport carries it whole, and
// the window and the CLI read it. A new status field is one property here.
import { Type, type Static } from "@sinclair/typebox";
import { StatusOptions } from "./provider-settings";

const Count = Type.Integer({ minimum: 0 });
const Ms = Type.Number({ minimum: 0 });
/** Epoch milliseconds. */
const At = Type.Number({ minimum: 0 });
const Words = Type.String();

export const UsageGateReading = Type.Object({
  ok: Type.Boolean(),
  concurrentSessions: Type.Optional(Count),
  error: Type.Optional(Words),
  checkedAt: At,
});
export type UsageGateReading = Static<typeof UsageGateReading>;

/** `resetAt` in epoch ms. */
export const UpstreamBucket = Type.Object({
  limit: Type.Optional(Count),
  remaining: Type.Optional(Count),
  resetAt: Type.Optional(At),
});
export type UpstreamBucket = Static<typeof UpstreamBucket>;

export const UpstreamLimits = Type.Object({
  requests: Type.Optional(UpstreamBucket),
  tokens: Type.Optional(UpstreamBucket),
  inputTokens: Type.Optional(UpstreamBucket),
  outputTokens: Type.Optional(UpstreamBucket),
  seenAt: At,
});
export type UpstreamLimits = Static<typeof UpstreamLimits>;

export const WindowStatus = Type.Union([Type.Literal("allowed"), Type.Literal("warning"), Type.Literal("rejected")]);
export type WindowStatus = Static<typeof WindowStatus>;

/** SPEC §8: one plan window (`5h`, `7d`, `primary`...), `resetsAt` and `seenAt` in epoch ms. */
export const PlanWindow = Type.Object({
  name: Words,
  usedPercent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  resetsAt: Type.Optional(At),
  status: Type.Optional(WindowStatus),
  binding: Type.Optional(Type.Literal(true)),
  /** How long the window runs (5h: 18,000,000; Codex's window-minutes; a day); absent when unknown. */
  lengthMs: Type.Optional(Type.Integer({ minimum: 1 })),
  seenAt: At,
});
export type PlanWindow = Static<typeof PlanWindow>;

/** SPEC §8: what pauses the provider, while a used-up plan window or a daily budget does. */
export const PauseKind = Type.Union([Type.Literal("window"), Type.Literal("budget")]);
export type PauseKind = Static<typeof PauseKind>;

/** SPEC §4: proxied requests that failed for want of a working upstream, over the last 10 minutes. */
const UpstreamFailures = Type.Object({ count: Count, lastError: Words, lastAt: At });
export type UpstreamFailures = Static<typeof UpstreamFailures>;

export const ConcurrencyStatusEntry = Type.Object({
  providerId: Words,
  limit: Count,
  active: Count,
  queued: Count,
  paused: Type.Boolean(),
  pausedUntil: Type.Optional(At),
  cooldownMs: Ms,
  autoReduced: Type.Boolean(),
  autoReducedFrom: Type.Optional(Count),
  notice: Type.Optional(Words),
  noticeDismissed: Type.Boolean(),
  recycling: Count,
  waitP50Ms: Type.Optional(Ms),
  waitP95Ms: Type.Optional(Ms),
  usageGate: Type.Optional(UsageGateReading),
  /** Only when paused: why, in words. */
  pauseReason: Type.Optional(Words),
  /** SPEC §8: present while a used-up window (or a budget) pauses the provider, whatever else does too. */
  pauseKind: Type.Optional(PauseKind),
  /** SPEC §6: the provider's own rate-limit headers, newest reading. */
  upstreamLimits: Type.Optional(UpstreamLimits),
  /** Additions for the window, so a push carries them: the upstream base URL when one is set. */
  ...StatusOptions.properties,
  /** Why queued waiters wait when it is not obvious (SPEC §1), e.g. Redis unreachable. */
  waitReason: Type.Optional(Words),
  /** SPEC §7, only for a provider shared across machines on Redis. */
  shared: Type.Optional(Type.Literal(true)),
  /** SPEC §7: how many hosts are live for a shared provider. */
  hosts: Type.Optional(Count),
  /** SPEC §8: the provider's plan windows, absent when none was ever seen. */
  windows: Type.Optional(Type.Array(PlanWindow)),
  /** SPEC §4: absent when there was none in the last 10 minutes. */
  upstreamFailures: Type.Optional(UpstreamFailures),
  /** SPEC §9: while a daily budget is set, it and what today cost so far (US dollars). */
  budget: Type.Optional(Type.Object({ dailyUsd: Type.Number({ minimum: 0 }), spentUsd: Type.Number({ minimum: 0 }) })),
  /** SPEC §8: while a used-up window pauses it, the agents whose requests it refused (labels, newest first, at most 20). */
  stoppedAgents: Type.Optional(Type.Array(Words, { maxItems: 20 })),
  /** SPEC §8: Anthropic's answers say requests are paid from extra usage since then (with `overage` allow). */
  overage: Type.Optional(Type.Object({ since: At })),
});
export type ConcurrencyStatusEntry = Static<typeof ConcurrencyStatusEntry>;
