// Active of the limit as a bar and a big number, queued and recycling beside it.
import type { ConcurrencyStatusEntry } from "../../shared/types";

export function CardNumbers({ entry }: { entry: ConcurrencyStatusEntry }) {
  const used = Math.min(1, (entry.active + entry.recycling) / Math.max(1, entry.limit));
  const active = Math.min(1, entry.active / Math.max(1, entry.limit));
  return (
    <div className="numbers">
      <div className="numbers-line">
        <span className="big">
          {entry.active} / {entry.limit}
          <span className="visually-hidden"> active</span>
        </span>
        <span className={entry.queued > 0 ? "queued queued-some" : "queued"}>{entry.queued} queued</span>
        <span className="muted">{entry.recycling > 0 ? `${entry.recycling} recycling` : ""}</span>
      </div>
      <div className="bar" aria-hidden="true" title={`${entry.active} active, ${entry.recycling} recycling (resting for the cooldown) of ${entry.limit}`}>
        <span className="bar-recycling" style={{ width: `${used * 100}%` }} />
        <span className="bar-active" style={{ width: `${active * 100}%` }} />
      </div>
    </div>
  );
}
