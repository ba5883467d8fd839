// Who holds a slot and who waits, with a way out for a lease whose agent died holding it. On
// the card, the first three of them in a box of fixed height (agents coming and going move
// nothing else); in the details, all of them. The agent picked in `Agents` is highlighted.
import { memo, useLayoutEffect, useRef } from "react";
import type { AgentEntry, HeldLeaseView, LeasesView, WaitingView } from "../../shared/types";
import { useHeadroom, useIntents } from "../app-context";
import { formatClock, formatClockShort } from "../format";
import { shortAgentLabel } from "../short-words";
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

/** What a card's row has room for beside the time and `Release`; the details show the whole label. */
const CARD_LABEL_CHARS = 20;

/** An agent and since when: on the card, the label shortened by design and the time to the minute. */
function Who({ name, since, compact }: { name: string; since: number; compact: boolean | undefined }) {
  if (!compact) {
    return (
      <>
        <span className="agent">{name}</span> <span className="muted">since {formatClock(since)}</span>
      </>
    );
  }
  const full = `${name} since ${formatClock(since)}`;
  return (
    <>
      <span className="agent" title={full}>
        {shortAgentLabel(name, CARD_LABEL_CHARS)}
      </span>{" "}
      <span className="muted since" title={full}>
        <span className="visually-hidden">since </span>
        {formatClockShort(since)}
      </span>
    </>
  );
}

/** `Release <agent>`, or `Release <agent> (<lease id>)` when that agent holds more than one. */
function releaseName(lease: HeldLeaseView, held: readonly HeldLeaseView[]): string {
  const name = holderName(lease);
  const twice = lease.agentId !== undefined && held.filter((other) => other.agentId === lease.agentId).length > 1;
  return twice ? `${name} (${lease.leaseId})` : name;
}

/** A lease belongs to an agent of the Agents list when it carries one of the agent's names. */
const isOf = (agent: AgentEntry | undefined, agentId: string | undefined): boolean =>
  agent !== undefined && agentId !== undefined && [agent.key, agent.label, agent.command].includes(agentId);

function HeldLease({ lease, name, picked, compact }: { lease: HeldLeaseView; name: string; picked: boolean; compact?: boolean }) {
  const intents = useIntents();
  const row = useRef<HTMLLIElement>(null);
  // The lease may end while its Release button has focus (the agent finished): hand it on.
  useLayoutEffect(() => {
    const element = row.current;
    return () => handOffFocus(element, "[data-focus=release]");
  }, []);
  return (
    <li ref={row} className={picked ? "picked" : undefined}>
      <Who name={holderName(lease)} since={lease.admittedAt} compact={compact} />{" "}
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

function Waiter({ waiter, picked, compact }: { waiter: WaitingView; picked: boolean; compact?: boolean }) {
  return (
    <li className={picked ? "picked" : undefined}>
      {compact && <span className="position">#{waiter.position}</span>}
      <Who name={waiter.agentId ?? "unnamed agent"} since={waiter.since} compact={compact} />
      {/* SPEC §8: a `headroom run --resume` that goes on by itself after the window's reset. */}
      {waiter.resuming && (
        <span className="badge resuming" title={waiter.waitReason}>
          resuming
        </span>
      )}
      <OnHost host={waiter.host} />
    </li>
  );
}

const EMPTY: LeasesView = { held: [], waiting: [] };

/** `max`: how many rows the card has room for, holders first; the rest are in the details. */
export const LeaseList = memo(function LeaseList({ providerId, max }: { providerId: string; max?: number }) {
  const leases = useHeadroom((state) => state.leases[providerId]) ?? EMPTY;
  const agent = useHeadroom((state) => state.agents?.find((a) => a.key === state.selectedAgent));
  const held = max === undefined ? leases.held : leases.held.slice(0, max);
  const waiting = max === undefined ? leases.waiting : leases.waiting.slice(0, max - held.length);
  const more = leases.held.length + leases.waiting.length - held.length - waiting.length;
  if (max !== undefined) {
    return (
      <div className="leases leases-compact" role="group" aria-label={`Agents of ${providerId}`}>
        {held.length + waiting.length === 0 && <p className="muted">no agent holds or waits</p>}
        {held.length > 0 && (
          <ul aria-label={`Holding ${providerId}`}>
            {held.map((lease) => (
              <HeldLease key={lease.leaseId} lease={lease} name={releaseName(lease, leases.held)} picked={isOf(agent, lease.agentId)} compact />
            ))}
          </ul>
        )}
        {waiting.length > 0 && (
          <ol aria-label={`Waiting for ${providerId}`} className="waiting">
            {waiting.map((waiter) => (
              <Waiter key={waiter.waiterId} waiter={waiter} picked={isOf(agent, waiter.agentId)} compact />
            ))}
          </ol>
        )}
        {more > 0 && <p className="muted more">and {more} more in the details</p>}
      </div>
    );
  }
  return (
    <div className="leases" tabIndex={0} role="group" aria-label={`Agents of ${providerId}`}>
      <div>
        <h3>Holding</h3>
        {held.length === 0 ? (
          <p className="muted">nobody</p>
        ) : (
          <ul aria-label={`Holding ${providerId}`}>
            {held.map((lease) => (
              <HeldLease key={lease.leaseId} lease={lease} name={releaseName(lease, leases.held)} picked={isOf(agent, lease.agentId)} />
            ))}
          </ul>
        )}
      </div>
      <div>
        <h3>Waiting</h3>
        {waiting.length === 0 ? (
          <p className="muted">nobody</p>
        ) : (
          <ol aria-label={`Waiting for ${providerId}`}>
            {waiting.map((waiter) => (
              <Waiter key={waiter.waiterId} waiter={waiter} picked={isOf(agent, waiter.agentId)} />
            ))}
          </ol>
        )}
      </div>
    </div>
  );
});
