// Counts down locally from the absolute pausedUntil, so it ticks without a push every second.
// It sits in the card's reserved attention space, so a pause starting or ending moves no editor.
import type { MouseEvent } from "react";
import { useIntents } from "../app-context";
import { formatRemaining } from "../../shared/duration";
import { focusWhenPresent, regionOf } from "../focus";
import { useAction } from "../hooks/use-action";
import { useNow } from "../hooks/use-now";

interface PauseProps {
  providerId: string;
  pausedUntil: number;
  /** SPEC §1 `pauseReason`, in words, when the host says why (e.g. the upstream's own reading). */
  reason?: string | undefined;
}

export function PauseCountdown({ providerId, pausedUntil, reason }: PauseProps) {
  const intents = useIntents();
  const { error, busy, run } = useAction();
  const now = useNow(500);
  // A 429 pause is the usual one; other reasons (the provider's own headers) are named. A used-up
  // window is named by the chip beside the id (`5h used up · 15:00`): here it is only "window".
  // Short by design: the line and Resume now share a card row of two lines (SPEC §4).
  const why = reason === undefined || /\b429\b/.test(reason) ? "Paused after a 429" : /window used up/.test(reason) ? "Paused: window used up" : `Paused: ${reason}`;
  async function resume(event: MouseEvent<HTMLButtonElement>): Promise<void> {
    const card = regionOf(event.currentTarget);
    const result = await run(intents.resume(providerId));
    if (result.ok) focusWhenPresent(card, "[data-focus=limit]");
  }
  return (
    <div className="pause">
      <span className="pause-text" title={reason ?? "Paused after a rate limit (429)"}>
        {why} · <span className="countdown">{formatRemaining(pausedUntil - now)}</span> left
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
