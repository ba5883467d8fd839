import { memo } from "react";
import type { HistoryEvent } from "../../shared/types";
import { useHeadroom } from "../app-context";
import { formatClock } from "../format";

/** The newest events first; the host keeps 500, the window shows what fits a glance. */
const SHOWN = 100;

/**
 * Keys that stay with their event as newer ones arrive on top, so a new event inserts one
 * row instead of rewriting a hundred (two identical events in one millisecond get a count).
 */
function keyed(events: readonly HistoryEvent[]): { key: string; event: HistoryEvent }[] {
  const seen = new Map<string, number>();
  return events.slice(0, SHOWN).map((event) => {
    const base = `${event.at}|${event.kind}|${event.message}`;
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return { key: `${base}|${count}`, event };
  });
}

const EventRow = memo(function EventRow({ event }: { event: HistoryEvent }) {
  return (
    <li className={`event-${event.kind}`} title={event.message}>
      <time dateTime={new Date(event.at).toISOString()}>{formatClock(event.at)}</time> {event.message}
    </li>
  );
});

export function ActivityList() {
  const events = useHeadroom((state) => state.events);
  return (
    <section className="panel" aria-labelledby="activity-heading">
      <h2 id="activity-heading">Activity</h2>
      {/* Focusable, so a keyboard can scroll it; fixed height, so new events move nothing. */}
      <ol className="activity" aria-label="Recent events" tabIndex={0}>
        {events.length === 0 ? (
          <li className="muted">Nothing has happened yet.</li>
        ) : (
          keyed(events).map(({ key, event }) => <EventRow key={key} event={event} />)
        )}
      </ol>
    </section>
  );
}
