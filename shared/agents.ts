// SPEC §9: the agents Headroom tells apart and what each one used, as `GET /agents`, `GET /usage`
// and the `agents` push carry them. Kept apart from shared/types.ts: one concern, one file.
import { Type } from "@sinclair/typebox";

export interface TokenCounts {
  /** Input tokens without cache reads, so providers add up the same way. */
  input: number;
  /** Output tokens, reasoning included. */
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export type AgentState = "running" | "waiting" | "idle";

export interface AgentEntry {
  key: string;
  /** "claude · ~/src/api" */
  label: string;
  pid?: number;
  command?: string;
  cwd?: string;
  userAgent?: string;
  providerId: string;
  state: AgentState;
  /** 1-based, when waiting. */
  position?: number;
  /** SPEC §8: waiting under `headroom run --resume` for a used-up window's reset; goes first. */
  resuming?: true;
  since: number;
  lastSeenAt: number;
  requests: number;
  /** In the provider's binding window when known, else the last 5 h. */
  tokens: TokenCounts;
  /** What those tokens cost, US dollars (0 when nothing was priced). */
  costUsd: number;
  /** Requests whose model has no price: their tokens count, their cost does not. */
  unpriced: number;
  /** The provider is on a plan: the cost is what the same tokens would cost on the API. */
  apiEquivalent?: true;
  /** SPEC §9: an estimate of the agent's share of the provider's binding window. */
  windowShare?: WindowShare;
}

/** `≈ 23 % of the 5-hour window`: the window's use times the agent's share of what was counted since it began. */
export interface WindowShare {
  window: string;
  percent: number;
}

/** At most this many agents in one `/agents` snapshot or push (issue 32: 8,000 were 2.2 MB a push). */
export const AGENTS_SHOWN_MAX = 500;

export interface AgentsView {
  /** Running and waiting first, then most recently seen; at most AGENTS_SHOWN_MAX. */
  agents: AgentEntry[];
  /** How many more agents were seen in the last hour than the snapshot carries; absent when none. */
  omitted?: number;
}

export interface UsageRow {
  /** The agent's label without pid: keys die with their process, labels add up over days. */
  agent?: string;
  providerId?: string;
  model?: string;
  /** The agent's folder, `~`-shortened; `unknown` when no folder was known (`by=project`). */
  project?: string;
  /** The host's local date, `YYYY-MM-DD` (`by=day`). */
  day?: string;
  /** The hour's first instant, epoch ms (`by=hour`: what the window's tokens-per-hour chart reads). */
  hour?: number;
  requests: number;
  rateLimited: number;
  errors: number;
  tokens: TokenCounts;
  /** US dollars; 0 when nothing was priced. */
  costUsd: number;
  /** Requests whose model has no price. */
  unpriced: number;
  /** Every provider in the row is on a plan: the cost is API-equivalent. */
  apiEquivalent?: true;
}

export interface UsageView {
  since: number;
  until: number;
  rows: UsageRow[];
}

const USAGE_GROUPS = ["agent", "provider", "model", "project", "day", "hour"] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

export const USAGE_HOURS = { min: 1, max: 192, default: 5 } as const;
/** `days=N`: today and the N−1 local dates before it (the per-day counter keeps 8). */
const USAGE_DAYS = { min: 1, max: 8 } as const;

export const UsageQuery = Type.Object(
  {
    hours: Type.Optional(
      Type.Integer({
        minimum: USAGE_HOURS.min,
        maximum: USAGE_HOURS.max,
        allowed: `an integer from ${USAGE_HOURS.min} to ${USAGE_HOURS.max} (hours)`,
      }),
    ),
    days: Type.Optional(
      Type.Integer({
        minimum: USAGE_DAYS.min,
        maximum: USAGE_DAYS.max,
        allowed: `an integer from ${USAGE_DAYS.min} to ${USAGE_DAYS.max} (days: today and the dates before it)`,
      }),
    ),
    by: Type.Optional(
      Type.Union(
        USAGE_GROUPS.map((group) => Type.Literal(group)),
        { allowed: `one of ${USAGE_GROUPS.join(", ")}` },
      ),
    ),
  },
  { allowed: "a query with hours or days, and by", additionalProperties: false },
);

/**
 * SPEC §9: `hours` and `days` are two ways to give the span, so both at once is refused (400).
 * TypeBox's object check cannot say "one or the other", so the rule is here, beside the schema,
 * and every edge (the service, the CLI) asks it. Undefined when the query is fine.
 */
export function usageSpanConflict(query: { hours?: number | undefined; days?: number | undefined }): string | undefined {
  if (query.hours === undefined || query.days === undefined) return undefined;
  return `hours and days must not be given together: give hours (an integer from ${USAGE_HOURS.min} to ${USAGE_HOURS.max}) or days (an integer from ${USAGE_DAYS.min} to ${USAGE_DAYS.max})`;
}

export const noTokens = (): TokenCounts => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
