import { useState } from "react";
import { useIntents } from "../app-context";
import { useAction } from "../hooks/use-action";

/** Removing answers every waiter with an error, so it asks once more. */
export function RemoveProvider({ providerId }: { providerId: string }) {
  const intents = useIntents();
  const [confirming, setConfirming] = useState(false);
  const { error, busy, run } = useAction();
  if (!confirming) {
    return (
      <button type="button" className="small quiet" onClick={() => setConfirming(true)}>
        Remove {providerId}
      </button>
    );
  }
  return (
    <div className="confirm" role="group" aria-label={`Confirm removing ${providerId}`}>
      <span>Remove {providerId}? Agents waiting for it get an error.</span>
      <button type="button" className="small danger" disabled={busy} onClick={() => void run(intents.removeProvider(providerId))}>
        Yes, remove {providerId}
      </button>
      <button type="button" className="small" onClick={() => setConfirming(false)}>
        Cancel
      </button>
      {error && (
        <span role="status" className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}
