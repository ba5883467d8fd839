// The numbers of a card, readable at a glance.
import type { ConcurrencyStatusEntry, UpstreamBucket, UpstreamLimits, UsageGateReading } from "../../shared/types";
import { formatDuration } from "../../shared/duration";
import { formatClock } from "../format";
import { Explained } from "./Explained";

function waitText({ waitP50Ms, waitP95Ms }: ConcurrencyStatusEntry): string {
  if (waitP50Ms === undefined || waitP95Ms === undefined) return "no admissions in 5 min";
  return `p50 ${formatDuration(waitP50Ms)} · p95 ${formatDuration(waitP95Ms)}`;
}

function gateText(gate: UsageGateReading): string {
  const at = `checked ${formatClock(gate.checkedAt)}`;
  if (gate.ok) return `${gate.concurrentSessions ?? "?"} sessions upstream (${at})`;
  return `error: ${gate.error ?? "unknown"} (${at}; admissions are not held back)`;
}

function bucketText(name: string, bucket: UpstreamBucket | undefined): string | undefined {
  if (!bucket || bucket.remaining === undefined) return undefined;
  const of = bucket.limit === undefined ? "" : ` of ${bucket.limit}`;
  const reset = bucket.resetAt === undefined ? "" : `, resets ${formatClock(bucket.resetAt)}`;
  return `${bucket.remaining}${of} ${name} left${reset}`;
}

/** The provider's own rate-limit headers, as last seen (SPEC §6). */
function upstreamText(limits: UpstreamLimits): string {
  const parts = [bucketText("requests", limits.requests), bucketText("tokens", limits.tokens)].filter((part) => part !== undefined);
  return `${parts.length > 0 ? parts.join(" · ") : "no remaining counts"} (seen ${formatClock(limits.seenAt)})`;
}

export function ProviderStats({ entry }: { entry: ConcurrencyStatusEntry }) {
  return (
    <dl className="stats">
      <div>
        <dt>Active</dt>
        <dd className="big">
          {entry.active} / {entry.limit}
        </dd>
      </div>
      <div>
        <dt>Queued</dt>
        <dd className="big">{entry.queued}</dd>
      </div>
      <div>
        <dt>
          <Explained term="Recycling" explanation="Slots just released and resting for the cooldown before the next agent gets them." />
        </dt>
        <dd className="big">{entry.recycling}</dd>
      </div>
      <div>
        <dt>Cooldown</dt>
        <dd>{formatDuration(entry.cooldownMs)}</dd>
      </div>
      <div className="wide-stat">
        <dt>Wait</dt>
        <dd>{waitText(entry)}</dd>
      </div>
      {entry.usageGate && (
        <div className={entry.usageGate.ok ? "wide-stat" : "wide-stat gate-error"}>
          <dt>Usage gate</dt>
          <dd>{gateText(entry.usageGate)}</dd>
        </div>
      )}
      {entry.upstreamLimits && (
        <div>
          <dt>Upstream says</dt>
          <dd>{upstreamText(entry.upstreamLimits)}</dd>
        </div>
      )}
    </dl>
  );
}
