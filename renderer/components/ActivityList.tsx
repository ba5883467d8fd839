import { useHeadroom } from "../app-context";
import { formatClock } from "../format";

/** The newest events first; the host keeps 500, the window shows what fits a glance. */
const SHOWN = 100;

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
          events.slice(0, SHOWN).map((event, i) => (
            <li key={`${event.at}-${i}-${event.kind}`} className={`event-${event.kind}`}>
              <time dateTime={new Date(event.at).toISOString()}>{formatClock(event.at)}</time> {event.message}
            </li>
          ))
        )}
      </ol>
    </section>
  );
}
