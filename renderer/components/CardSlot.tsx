// Two rows of fixed height inside the card: what happens now (a pause with its countdown, why
// agents wait, failures for want of an upstream, or the usage gate's reading) and the reduction
// (SPEC §4's banner, or after Dismiss the quiet line that keeps `Restore limit to N`). Either
// row coming or going moves nothing else.
import type { ConcurrencyStatusEntry, UsageGateReading } from "../../shared/types";
import { formatDuration } from "../../shared/duration";
import { formatClock } from "../format";
import { PauseCountdown } from "./PauseCountdown";
import { ReductionBanner } from "./ReductionBanner";
import { SetUpstreamButton } from "./DetailsPanel";
import { WaitReason } from "./SharedState";

function gateText(gate: UsageGateReading): string {
  if (gate.ok) return `${gate.concurrentSessions ?? "?"} sessions upstream (checked ${formatClock(gate.checkedAt)})`;
  return `usage gate error: ${gate.error ?? "unknown"} (admissions are not held back)`;
}

function NowRow({ entry }: { entry: ConcurrencyStatusEntry }) {
  if (entry.paused && entry.pausedUntil !== undefined) {
    return <PauseCountdown providerId={entry.providerId} pausedUntil={entry.pausedUntil} reason={entry.pauseReason} />;
  }
  if (entry.upstreamFailures) {
    const { count, lastError } = entry.upstreamFailures;
    return (
      <div className="now-line alert-text">
        <span className="two-lines" title={lastError}>
          {count} failed: {lastError}
        </span>
        <SetUpstreamButton providerId={entry.providerId} text="Set upstream" />
      </div>
    );
  }
  if (entry.waitReason) return <WaitReason reason={entry.waitReason} />;
  if (entry.usageGate) {
    return (
      <p className={entry.usageGate.ok ? "now-line muted two-lines" : "now-line alert-text two-lines"} title={gateText(entry.usageGate)}>
        {gateText(entry.usageGate)}
      </p>
    );
  }
  return <p className="now-line muted">{entry.queued > 0 ? `${entry.queued} waiting for a slot` : entry.active > 0 ? `${entry.active} running` : "idle"}</p>;
}

function CalmRow({ entry }: { entry: ConcurrencyStatusEntry }) {
  const wait =
    entry.waitP50Ms === undefined || entry.waitP95Ms === undefined ? "no admissions in 5 min" : `wait p50 ${formatDuration(entry.waitP50Ms)} · p95 ${formatDuration(entry.waitP95Ms)}`;
  return <p className="now-line muted two-lines">{wait}</p>;
}

export function CardSlot({ entry }: { entry: ConcurrencyStatusEntry }) {
  return (
    <div className="slot">
      <div className="slot-now">
        <NowRow entry={entry} />
      </div>
      <div className="slot-reduction">{entry.autoReduced ? <ReductionBanner entry={entry} /> : <CalmRow entry={entry} />}</div>
    </div>
  );
}
