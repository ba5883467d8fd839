// SPEC §9 as the service offers it: every ask for a slot names its agent, every proxied answer
// adds its usage and its cost, and `GET /agents` / `GET /usage` read the result. Composes the
// tracker (who is around, in memory) with the ledger (what they used, hourly) and the per-day
// counter, both on disk in `<dataDir>/usage/` (usage-files.ts), and the price book (what it
// cost, electron/agents/prices.ts).
import type { AgentEntry, AgentsView, TokenCounts, UsageView } from "../../shared/agents";
import { AGENTS_SHOWN_MAX, USAGE_HOURS, usageSpanConflict } from "../../shared/agents";
import type { Admission, LeaseOutcome, PlanWindow } from "../../shared/types";
import { identify, type AgentIdentity } from "../agents/agent-identity";
import { AgentTracker, type PoolView } from "../agents/agent-tracker";
import { PriceBook, priceFamily, type PathFormat } from "../agents/prices";
import { bindingSpan, tokenWindowStart } from "../agents/token-window";
import type { UsageCount } from "../agents/usage-count";
import { UsageDays } from "../agents/usage-days";
import { openUsageFiles, type UsageFiles } from "../agents/usage-files";
import { HOUR_MS, UsageLedger } from "../agents/usage-ledger";
import { windowShares } from "../agents/window-share";
import type { Clock } from "../engine/clock";
import { localDay } from "../engine/local-day";
import type { AcquireInput } from "./lease-service";
import type { Input } from "./operation-input";
import { ServiceError } from "./service-error";

export interface AgentsDeps {
  clock: Clock;
  /** The data folder, where the usage files live; absent = counts are kept in memory only. */
  dataDir?: string;
  /** How often changed counts are written (5 s; tests shorten it). */
  writeEveryMs?: number;
  pools: () => PoolView[];
  onChange: () => void;
  /** Each answer's tokens, for `headroom_tokens_total`. */
  onTokens: (providerId: string, tokens: TokenCounts) => void;
  /** Each priced answer's cost in US dollars, for `headroom_cost_usd_total` (and a daily budget). */
  onCost?: (providerId: string, usd: number) => void;
  /**
   * The provider's plan windows as its status shows them (SPEC §8): a provider with any is on a
   * plan, so its costs are API-equivalent, and its binding window gives the agents' shares.
   */
  windows?: (providerId: string) => readonly PlanWindow[] | undefined;
  /**
   * When the provider's current token window began: its binding plan window (SPEC §8) once a
   * reading named one (token-window.ts); the last 5 h without it.
   */
  windowStart?: (providerId: string, now: number) => number;
}

/** One proxied answer, as the proxy saw it end. */
export interface CountedAnswer {
  providerId: string;
  agent: AgentIdentity;
  model: string;
  outcome: LeaseOutcome;
  tokens?: TokenCounts;
  /** Where it went: the upstream's host and the path's format choose the price family (prices.ts). */
  upstream?: { host: string; format: PathFormat };
}

export class AgentsService {
  private readonly tracker = new AgentTracker();
  private readonly ledger = new UsageLedger();
  private readonly days = new UsageDays();
  private readonly prices = new PriceBook();
  private readonly files: UsageFiles | undefined;

  constructor(private readonly deps: AgentsDeps) {
    if (deps.dataDir !== undefined) this.files = openUsageFiles(deps.dataDir, this.ledger, this.days, deps.clock, deps.writeEveryMs);
  }

  /** For the status: usage files moved aside at start, a write that failed. */
  notices(): string[] {
    return this.files?.notices() ?? [];
  }

  /** Resolves when no usage write is under way (tests, the bench). */
  async written(): Promise<void> {
    await this.files?.idle();
  }

  /** Wraps one ask for a slot: the agent is waiting until it is admitted or gives up. */
  async acquiring(input: AcquireInput & { agent?: AgentIdentity }, acquire: (input: AcquireInput) => Promise<Admission>): Promise<Admission> {
    const { clock } = this.deps;
    const agent = input.agent ?? identify(input.agentId === undefined ? {} : { leaseAgent: input.agentId });
    const id = this.tracker.asking(agent, input.providerId, clock.now());
    this.tracker.waitStarted(id);
    this.deps.onChange();
    try {
      const admission = await acquire(input);
      this.tracker.admitted(id, admission.leaseId);
      return admission;
    } finally {
      this.tracker.waitEnded(id, clock.now());
      this.deps.onChange();
    }
  }

  /** A slot taken at once (`admit` answers its lease, or undefined to queue): recorded as acquiring() would. */
  admittedNow(providerId: string, asker: AgentIdentity | undefined, admit: (agentId: string | undefined) => string | undefined): string | undefined {
    const leaseId = admit(asker?.name);
    if (leaseId === undefined) return undefined;
    const agent = asker ?? identify({});
    this.tracker.admitted(this.tracker.asking(agent, providerId, this.deps.clock.now()), leaseId);
    this.deps.onChange();
    return leaseId;
  }

  /** A lease ended (released, undelivered, expired). */
  leaseEnded(leaseId: string): void {
    this.tracker.ended(leaseId, this.deps.clock.now());
    this.deps.onChange();
  }

  /** The name of the agent holding a lease, which a request riding on it takes (SPEC §9). */
  leaseAgent(leaseId: string): string | undefined {
    return this.tracker.leaseAgent(leaseId);
  }

  /** A request riding on a held lease: the lease's agent learns its process and folder. */
  rode(leaseId: string, agent: AgentIdentity): void {
    this.tracker.rode(leaseId, agent, this.deps.clock.now());
  }

  counted(answer: CountedAnswer): void {
    const { tokens, upstream } = answer;
    const now = this.deps.clock.now();
    // Only an answer with tokens is priced: one without (an error, a refusal) cost nothing and is not "unpriced".
    const cost = tokens && this.prices.price(priceFamily(upstream?.host, upstream?.format ?? "openai"), answer.model, tokens, now);
    const event = {
      providerId: answer.providerId,
      agent: answer.agent.label,
      model: answer.model,
      ...(answer.agent.project === undefined ? {} : { project: answer.agent.project }),
      rateLimited: answer.outcome === "rate_limited",
      error: answer.outcome === "failure",
      ...(tokens === undefined ? {} : { tokens }),
      ...(cost === undefined ? {} : { costUsd: cost.costUsd, unpriced: cost.unpriced }),
    };
    this.ledger.add(now, event);
    this.days.add(now, event);
    if (tokens) this.deps.onTokens(answer.providerId, tokens);
    if (cost && cost.costUsd > 0) this.deps.onCost?.(answer.providerId, cost.costUsd);
    this.files?.changed();
    this.deps.onChange();
  }

  /** A provider's cost on a host-local date, as the per-day counter holds it: a daily budget reads it back at start. */
  costOn(providerId: string, date: string): number {
    return this.days.total(providerId, date).costUsd;
  }

  agents(): AgentsView {
    const now = this.deps.clock.now();
    const windowStart = this.deps.windowStart ?? ((_: string, at: number) => tokenWindowStart(undefined, at));
    const used = this.ledger.byAgent((providerId) => windowStart(providerId, now));
    const usedBy = (providerId: string, label: string) => used.get(`${providerId}\u0000${label}`);
    const { agents, omitted } = this.tracker.view(now, this.deps.pools(), usedBy, AGENTS_SHOWN_MAX);
    return { agents: this.withPlans(agents, used, now), ...(omitted > 0 ? { omitted } : {}) };
  }

  /**
   * SPEC §9: `hours` counts back from now over the hourly buckets; `days` starts at the local
   * midnight N−1 dates ago and reads the per-day counter (exact at a +5:30 zone's midnight),
   * except by model and hour, which only the hours hold (from the hour that midnight falls in).
   */
  usage(input: Input<"usage">): UsageView {
    const conflict = usageSpanConflict(input);
    if (conflict !== undefined) throw new ServiceError("invalid_input", conflict);
    const { by = "agent" } = input;
    const until = this.deps.clock.now();
    const onPlan = (providerId: string) => this.onPlan(providerId);
    if (input.days === undefined) {
      const since = until - (input.hours ?? USAGE_HOURS.default) * HOUR_MS;
      return { since, until, rows: this.ledger.rows(since, by, onPlan) };
    }
    const days = [localDay(until)];
    while (days.length < input.days) days.unshift(localDay(days[0]!.start - 1));
    const since = days[0]!.start;
    const rows = by === "model" || by === "hour" ? this.ledger.rows(since, by, onPlan) : this.days.rows(days.map((day) => day.date), by, onPlan);
    return { since, until, rows };
  }

  private onPlan(providerId: string): boolean {
    return (this.deps.windows?.(providerId)?.length ?? 0) > 0;
  }

  /** Entries of providers on a plan: `apiEquivalent`, and each one's share of the binding window. */
  private withPlans(agents: AgentEntry[], used: Map<string, UsageCount>, now: number): AgentEntry[] {
    const shares = new Map<string, ReturnType<typeof windowShares>>();
    const sharesOf = (providerId: string) => {
      let found = shares.get(providerId);
      if (found) return found;
      const span = bindingSpan(this.deps.windows?.(providerId), now);
      const usedPercent = span?.window.usedPercent;
      const prefix = `${providerId}\u0000`;
      const own = new Map([...used].filter(([key]) => key.startsWith(prefix)));
      found = usedPercent === undefined ? new Map() : windowShares(own, { name: span!.window.name, usedPercent });
      shares.set(providerId, found);
      return found;
    };
    return agents.map((entry) => {
      if (!this.onPlan(entry.providerId)) return entry;
      const share = sharesOf(entry.providerId).get(`${entry.providerId}\u0000${entry.label}`);
      return { ...entry, apiEquivalent: true, ...(share === undefined ? {} : { windowShare: share }) };
    });
  }

  /** Writes the counts not yet on disk. */
  close(): void {
    this.files?.close();
  }
}
