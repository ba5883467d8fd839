// SPEC §4's banner: shown inside the card after an automatic reduction until dismissed.
import type { ConcurrencyStatusEntry } from "../../shared/types";
import { useIntents } from "../app-context";
import { useAction } from "../hooks/use-action";

export function ReductionBanner({ entry }: { entry: ConcurrencyStatusEntry }) {
  const intents = useIntents();
  const { error, busy, run } = useAction();
  const { providerId, autoReducedFrom } = entry;
  return (
    <div role="alert" className="banner">
      <p>{entry.notice ?? `Limit for ${providerId} was lowered after a rate limit (429).`}</p>
      <div className="banner-actions">
        {autoReducedFrom !== undefined && (
          <button type="button" className="primary" disabled={busy} onClick={() => void run(intents.setLimit(providerId, autoReducedFrom))}>
            Restore limit to {autoReducedFrom}
          </button>
        )}
        <button type="button" disabled={busy} onClick={() => void run(intents.dismissNotice(providerId))}>
          Dismiss
        </button>
      </div>
      {error && (
        <p role="status" className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
