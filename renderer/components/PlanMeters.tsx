// SPEC §8's plan windows as thin meters (the binding one first), in a slot of fixed height;
// without windows the slot shows the provider's own rate-limit readings, else the wait times.
import type { ConcurrencyStatusEntry, PlanWindow } from "../../shared/types";
import { windowName } from "../../shared/attention-words";
import { formatDuration } from "../../shared/duration";
import { formatTimeOfDay } from "../format";
import { UpstreamMeters } from "./UpstreamMeters";

const ROWS = 2;

function ordered(windows: readonly PlanWindow[]): PlanWindow[] {
  return [...windows].sort((a, b) => Number(b.binding ?? false) - Number(a.binding ?? false) || a.name.localeCompare(b.name));
}

function WindowMeter({ providerId, window }: { providerId: string; window: PlanWindow }) {
  const used = window.usedPercent;
  const level = window.status === "rejected" || (used ?? 0) >= 100 ? "alert" : window.status === "warning" || (used ?? 0) >= 80 ? "warn" : "ok";
  const reset = window.resetsAt === undefined ? "" : ` · resets ${formatTimeOfDay(window.resetsAt)}`;
  const name = windowName(window.name);
  return (
    <div className={`meter-row window-${level}`}>
      <span className="field-label">{name}</span>
      <meter min={0} max={100} low={80} high={95} optimum={0} value={used ?? 0} aria-label={`${name} window used for ${providerId}`} />
      <span className="meter-value">
        {used === undefined ? window.status ?? "?" : `${Math.round(used)} %`}
        <span className="muted">{reset}</span>
      </span>
    </div>
  );
}

export function PlanMeters({ entry, all = false }: { entry: ConcurrencyStatusEntry; all?: boolean }) {
  const windows = entry.windows ?? [];
  if (windows.length > 0) {
    const shown = ordered(windows);
    return (
      <div className="meters plan-meters" role="group" aria-label={`Plan windows for ${entry.providerId}`}>
        {(all ? shown : shown.slice(0, ROWS)).map((window) => (
          <WindowMeter key={window.name} providerId={entry.providerId} window={window} />
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
      <p>no plan windows or rate limits seen yet</p>
      <p>cooldown {formatDuration(entry.cooldownMs)} after each release</p>
    </div>
  );
}
