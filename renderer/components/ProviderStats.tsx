// The numbers of a card, readable at a glance.
import type { ConcurrencyStatusEntry, UsageGateReading } from "../../shared/types";
import { formatClock, formatMs } from "../format";
import { Explained } from "./Explained";

function waitText({ waitP50Ms, waitP95Ms }: ConcurrencyStatusEntry): string {
  if (waitP50Ms === undefined || waitP95Ms === undefined) return "no admissions in 5 min";
  return `p50 ${formatMs(waitP50Ms)} · p95 ${formatMs(waitP95Ms)}`;
}

function gateText(gate: UsageGateReading): string {
  const at = `checked ${formatClock(gate.checkedAt)}`;
  if (gate.ok) return `${gate.concurrentSessions ?? "?"} sessions upstream (${at})`;
  return `error: ${gate.error ?? "unknown"} (${at}; admissions are not held back)`;
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
        <dd>{formatMs(entry.cooldownMs)}</dd>
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
    </dl>
  );
}
