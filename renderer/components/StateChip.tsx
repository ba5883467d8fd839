// The card's one state word (SPEC §4 "At a glance"): admitting, paused with its countdown, a
// window used up with its local reset time, or held back. Colour is never the only sign.
import { usedUp, windowName } from "../../shared/attention-words";
import type { ConcurrencyStatusEntry } from "../../shared/types";
import { formatRemaining } from "../../shared/duration";
import { formatTimeOfDay } from "../format";
import { useNow } from "../hooks/use-now";

function PausedChip({ until }: { until: number }) {
  const now = useNow(1_000);
  return <span className="chip chip-alert">paused · {formatRemaining(until - now)}</span>;
}

export function StateChip({ entry }: { entry: ConcurrencyStatusEntry }) {
  const spent = entry.windows?.find(usedUp);
  if (spent) {
    // Short by design (SPEC §4: `5h used up · 18:23`): the chip shares a row with the id.
    const reset = spent.resetsAt === undefined ? "" : ` · ${formatTimeOfDay(spent.resetsAt)}`;
    const resets = spent.resetsAt === undefined ? "" : `, resets ${formatTimeOfDay(spent.resetsAt)}`;
    return (
      <span className="chip chip-alert" title={`${windowName(spent.name)} window used up${resets}`}>
        {`${spent.name} used up${reset}`}
      </span>
    );
  }
  if (entry.paused && entry.pausedUntil !== undefined) return <PausedChip until={entry.pausedUntil} />;
  if (entry.waitReason?.startsWith("holding new agents")) return <span className="chip chip-warn">holding new agents</span>;
  if (entry.waitReason) return <span className="chip chip-warn">held back</span>;
  return <span className="chip chip-ok">admitting</span>;
}
