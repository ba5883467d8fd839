// SPEC §8's plan windows as thin meters (the binding one first), in a slot of fixed height;
// without windows the slot shows the provider's own rate-limit readings, else the wait times.
// Each meter carries its pace (SPEC §4): a mark where the window's time has got to, amber
// when use runs ahead of it, and the same in words on hover and for screen readers.
import type { ConcurrencyStatusEntry, PlanWindow } from "../../shared/types";
import { windowName } from "../../shared/attention-words";
import { formatDuration } from "../../shared/duration";
import { paceWords, windowPace } from "../../shared/window-pace";
import { formatTimeOfDay } from "../format";
import { useNow } from "../hooks/use-now";
import { UpstreamMeters } from "./UpstreamMeters";

/** A 5-hour window's 1 % is 3 minutes: a mark re-placed twice a minute never lags visibly. */
const PACE_TICK_MS = 30_000;

const ROWS = 2;

function ordered(windows: readonly PlanWindow[]): PlanWindow[] {
  return [...windows].sort((a, b) => Number(b.binding ?? false) - Number(a.binding ?? false) || a.name.localeCompare(b.name));
}

function WindowMeter({ providerId, window, now }: { providerId: string; window: PlanWindow; now: number }) {
  const used = window.usedPercent;
  const pace = windowPace(window, now);
  const ahead = pace?.verdict === "ahead";
  const level = window.status === "rejected" || (used ?? 0) >= 100 ? "alert" : window.status === "warning" || (used ?? 0) >= 80 || ahead ? "warn" : "ok";
  const reset = window.resetsAt === undefined ? "" : ` · resets ${formatTimeOfDay(window.resetsAt)}`;
  const name = windowName(window.name);
  const words = pace && paceWords(pace);
  return (
    <div className={`meter-row window-${level}${ahead ? " pace-ahead" : ""}`} title={words}>
      <span className="field-label">{name}</span>
      <span className="pace-meter">
        <meter
          min={0}
          max={100}
          low={80}
          high={95}
          optimum={0}
          value={used ?? 0}
          aria-label={`${name} window used for ${providerId}`}
          aria-valuetext={words}
        />
        {pace && <span className="pace-mark" aria-hidden="true" style={{ left: `${pace.elapsedPercent}%` }} />}
      </span>
      <span className="meter-value">
        {/* Colour is never the only sign: the arrow says "ahead of pace" beside the amber. */}
        {ahead && <span aria-hidden="true">▲ </span>}
        {used === undefined ? window.status ?? "?" : `${Math.round(used)} %`}
        <span className="muted">{reset}</span>
      </span>
    </div>
  );
}

export function PlanMeters({ entry, all = false }: { entry: ConcurrencyStatusEntry; all?: boolean }) {
  const windows = entry.windows ?? [];
  const now = useNow(PACE_TICK_MS, windows.length > 0);
  if (windows.length > 0) {
    const shown = ordered(windows);
    return (
      <div className="meters plan-meters" role="group" aria-label={`Plan windows for ${entry.providerId}`}>
        {(all ? shown : shown.slice(0, ROWS)).map((window) => (
          <WindowMeter key={window.name} providerId={entry.providerId} window={window} now={now} />
        ))}
      </div>
    );
  }
  if (entry.upstreamLimits) {
    return (
      <div className="plan-meters">
        <UpstreamMeters entry={entry} rows={all ? undefined : ROWS} />
      </div>
    );
  }
  return (
    <div className="plan-meters muted">
      <p>no plan windows seen yet</p>
      <p>cooldown {formatDuration(entry.cooldownMs)} after each release</p>
    </div>
  );
}
