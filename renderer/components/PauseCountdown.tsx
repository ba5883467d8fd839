// Counts down locally from the absolute pausedUntil, so it ticks without a push every second.
import { useIntents } from "../app-context";
import { formatRemaining } from "../format";
import { useAction } from "../hooks/use-action";
import { useNow } from "../hooks/use-now";

/** `reason` is the status's pauseReason: a 429 reads as before, the provider's own headers say so. */
export function PauseCountdown({ providerId, pausedUntil, reason }: { providerId: string; pausedUntil: number; reason?: string }) {
  const intents = useIntents();
  const { error, busy, run } = useAction();
  const now = useNow(250);
  return (
    <div className="pause">
      <p>
        {reason === undefined || reason === "rate limited (429)" ? "Paused after a rate limit" : `Paused: ${reason}`} — resumes in <span className="countdown">{formatRemaining(pausedUntil - now)}</span>
      </p>
      <button type="button" disabled={busy} onClick={() => void run(intents.resume(providerId))}>
        Resume now
      </button>
      {error && (
        <p role="status" className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
