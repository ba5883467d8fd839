import { useHeadroom, useIntents } from "../app-context";
import { CHART_RANGES } from "../store/samples";

/** The charts' range, for every card at once: the last 5 minutes or the last hour. */
export function ChartRange() {
  const intents = useIntents();
  const minutes = useHeadroom((state) => state.chartMinutes);
  return (
    <div className="segmented" role="group" aria-label="Chart range">
      {CHART_RANGES.map((range) => (
        <button key={range} type="button" className="small" aria-pressed={minutes === range} onClick={() => void intents.showChart(range)}>
          {range === 5 ? "5 min" : "1 h"}
        </button>
      ))}
    </div>
  );
}
