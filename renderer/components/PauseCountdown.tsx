// Counts down locally from the absolute pausedUntil, so it ticks without a push every second.
// It sits in the card's reserved attention space, so a pause starting or ending moves no editor.
import type { MouseEvent } from "react";
import { useIntents } from "../app-context";
import { formatRemaining } from "../format";
import { focusWhenPresent, regionOf } from "../focus";
import { useAction } from "../hooks/use-action";
import { useNow } from "../hooks/use-now";

export function PauseCountdown({ providerId, pausedUntil }: { providerId: string; pausedUntil: number }) {
  const intents = useIntents();
  const { error, busy, run } = useAction();
  const now = useNow(500);
  async function resume(event: MouseEvent<HTMLButtonElement>): Promise<void> {
    const card = regionOf(event.currentTarget);
    const result = await run(intents.resume(providerId));
    if (result.ok) focusWhenPresent(card, "[data-focus=limit]");
  }
  return (
    <div className="pause">
      <span>
        New agents wait: resumes in <span className="countdown">{formatRemaining(pausedUntil - now)}</span>
      </span>
      <button type="button" className="small" aria-disabled={busy || undefined} onClick={(event) => void (busy ? undefined : resume(event))}>
        Resume now
      </button>
      {error && (
        <span role="status" className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}
