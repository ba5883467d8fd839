// Who holds a slot and who waits, with a way out for a lease whose agent died holding it.
import { memo } from "react";
import type { HeldLease as HeldLeaseView } from "../../shared/types";
import { useHeadroom, useIntents } from "../app-context";
import { formatClock } from "../format";
import { useAction } from "../hooks/use-action";

const holderName = (lease: HeldLeaseView) => lease.agentId ?? `lease ${lease.leaseId.slice(0, 8)}`;

function HeldLease({ lease }: { lease: HeldLeaseView }) {
  const intents = useIntents();
  const { error, busy, run } = useAction();
  const name = holderName(lease);
  return (
    <li>
      <span className="agent">{name}</span> <span className="muted">since {formatClock(lease.admittedAt)}</span>{" "}
      <button type="button" className="small" disabled={busy} aria-label={`Release ${name}`} onClick={() => void run(intents.releaseLease(lease.leaseId))}>
        Release
      </button>
      {error && (
        <span role="status" className="field-error">
          {error}
        </span>
      )}
    </li>
  );
}

export const LeaseList = memo(function LeaseList({ providerId }: { providerId: string }) {
  const leases = useHeadroom((state) => state.leases[providerId]);
  if (!leases || (leases.held.length === 0 && leases.waiting.length === 0)) {
    return <p className="muted leases">Nobody holds a slot or waits.</p>;
  }
  return (
    <div className="leases">
      {leases.held.length > 0 && (
        <div>
          <h3>Holding</h3>
          <ul aria-label={`Holding ${providerId}`}>
            {leases.held.map((lease) => (
              <HeldLease key={lease.leaseId} lease={lease} />
            ))}
          </ul>
        </div>
      )}
      {leases.waiting.length > 0 && (
        <div>
          <h3>Waiting</h3>
          <ol aria-label={`Waiting for ${providerId}`}>
            {leases.waiting.map((waiter) => (
              <li key={waiter.waiterId}>
                <span className="agent">{waiter.agentId ?? "unnamed agent"}</span>{" "}
                <span className="muted">since {formatClock(waiter.since)}</span>
              </li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
});
