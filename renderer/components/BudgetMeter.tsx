// SPEC §4/§9: a provider's daily budget as a meter where it acts — today's spend against the
// budget, amber from 80 % (the host's `budget_warning`), red once reached (the provider is then
// paused until midnight, and the state chip says "budget reached"). Words on hover and for
// screen readers, so colour is never the only sign. A shared provider's day ends at midnight UTC.
import type { ConcurrencyStatusEntry } from "../../shared/types";
import { formatUsd } from "../../shared/cost-words";

/** The host warns at this share of the budget (SPEC §9 `budget_warning`). */
const WARN_PERCENT = 80;

function budgetWords(entry: ConcurrencyStatusEntry): string | undefined {
  const { budget } = entry;
  if (!budget) return undefined;
  const percent = Math.floor((budget.spentUsd / budget.dailyUsd) * 100);
  const midnight = entry.shared ? "midnight UTC" : "midnight";
  const spent = `${formatUsd(budget.spentUsd)} of the ${formatUsd(budget.dailyUsd)} daily budget spent today (${percent} %)`;
  if (percent >= 100) return `${spent}: reached, new agents wait until ${midnight}`;
  if (percent >= WARN_PERCENT) return `${spent}: nearing the budget, it pauses at 100 % until ${midnight}`;
  return `${spent}; the day ends at ${midnight}`;
}

export function BudgetMeter({ entry }: { entry: ConcurrencyStatusEntry }) {
  const { budget } = entry;
  if (!budget) return null;
  const percent = (budget.spentUsd / budget.dailyUsd) * 100;
  const level = percent >= 100 ? "alert" : percent >= WARN_PERCENT ? "warn" : "ok";
  const words = budgetWords(entry);
  return (
    <div className={`meter-row window-${level}`} title={words}>
      <span className="field-label">budget</span>
      <meter
        min={0}
        max={budget.dailyUsd}
        low={budget.dailyUsd * 0.8}
        high={budget.dailyUsd * 0.95}
        optimum={0}
        value={Math.min(budget.spentUsd, budget.dailyUsd)}
        aria-label={`Daily budget used for ${entry.providerId}`}
        aria-valuetext={words}
      />
      <span className="meter-value">
        {level !== "ok" && <span aria-hidden="true">▲ </span>}
        {formatUsd(budget.spentUsd)}
        <span className="muted"> / {formatUsd(budget.dailyUsd)}</span>
      </span>
    </div>
  );
}
