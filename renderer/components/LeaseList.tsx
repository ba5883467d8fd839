// Who holds a slot and who waits, with a way out for a lease whose agent died holding it.
// The list has a fixed height and scrolls, so agents coming and going move nothing else.
import { memo, useLayoutEffect, useRef } from "react";
import type { HeldLeaseView, LeasesView } from "../../shared/types";
import { useHeadroom, useIntents } from "../app-context";
import { formatClock } from "../format";
import { handOffFocus } from "../focus";
import { ConfirmButton } from "./ConfirmButton";

/** For a shared provider (SPEC §7), the host holding or waiting, on a line of its own so it is never cut off. */
function OnHost({ host }: { host: string | undefined }) {
  if (host === undefined) return null;
  return (
    <>
      {" "}
      <span className="on-host">on {host}</span>
    </>
  );
}

const holderName = (lease: HeldLeaseView) => lease.agentId ?? `lease ${lease.leaseId.slice(0, 8)}`;

/** `Release <agent>`, or `Release <agent> (<lease id>)` when that agent holds more than one. */
function releaseName(lease: HeldLeaseView, held: readonly HeldLeaseView[]): string {
  const name = holderName(lease);
  const twice = lease.agentId !== undefined && held.filter((other) => other.agentId === lease.agentId).length > 1;
  return twice ? `${name} (${lease.leaseId})` : name;
}

function HeldLease({ lease, name }: { lease: HeldLeaseView; name: string }) {
  const intents = useIntents();
  const row = useRef<HTMLLIElement>(null);
  // The lease may end while its Release button has focus (the agent finished): hand it on.
  useLayoutEffect(() => {
    const element = row.current;
    return () => handOffFocus(element, "[data-focus=release]");
  }, []);
  return (
    <li ref={row}>
      <span className="agent">{holderName(lease)}</span> <span className="muted">since {formatClock(lease.admittedAt)}</span>{" "}
      <ConfirmButton
        name={`Release ${name}`}
        text="Release"
        question={`Release ${name}? Its agent loses the slot.`}
        confirmName={`Yes, release ${name}`}
        action={() => intents.releaseLease(lease.leaseId)}
        focusKey="release"
      />
      <OnHost host={lease.host} />
    </li>
  );
}

const EMPTY: LeasesView = { held: [], waiting: [] };

export const LeaseList = memo(function LeaseList({ providerId }: { providerId: string }) {
  const leases = useHeadroom((state) => state.leases[providerId]) ?? EMPTY;
  return (
    <div className="leases" tabIndex={0} role="group" aria-label={`Agents of ${providerId}`}>
      <div>
        <h4>Holding</h4>
        {leases.held.length === 0 ? (
          <p className="muted">nobody</p>
        ) : (
          <ul aria-label={`Holding ${providerId}`}>
            {leases.held.map((lease) => (
              <HeldLease key={lease.leaseId} lease={lease} name={releaseName(lease, leases.held)} />
            ))}
          </ul>
        )}
      </div>
      <div>
        <h4>Waiting</h4>
        {leases.waiting.length === 0 ? (
          <p className="muted">nobody</p>
        ) : (
          <ol aria-label={`Waiting for ${providerId}`}>
            {leases.waiting.map((waiter) => (
              <li key={waiter.waiterId}>
                <span className="agent">{waiter.agentId ?? "unnamed agent"}</span>{" "}
                <span className="muted">since {formatClock(waiter.since)}</span>
                <OnHost host={waiter.host} />
              </li>
            ))}
          </ol>
        )}
      </div>
    </div>
  );
});
