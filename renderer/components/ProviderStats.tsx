// The numbers of a card, readable at a glance.
import type { ConcurrencyStatusEntry, UsageGateReading } from "../../shared/types";
import { formatClock, formatMs } from "../format";

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
        <dt>Recycling</dt>
        <dd className="big">{entry.recycling}</dd>
      </div>
      <div>
        <dt>Cooldown</dt>
        <dd>{formatMs(entry.cooldownMs)}</dd>
      </div>
      <div>
        <dt>Wait</dt>
        <dd>{waitText(entry)}</dd>
      </div>
      {entry.usageGate && (
        <div className={entry.usageGate.ok ? undefined : "gate-error"}>
          <dt>Usage gate</dt>
          <dd>{gateText(entry.usageGate)}</dd>
        </div>
      )}
    </dl>
  );
}
