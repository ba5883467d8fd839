// SPEC §7: the switch that shares a provider across machines on Redis. A host without Redis
// cannot share, so the switch stays in its place, focusable but inert, and says on hover and
// focus what would make it work (a disabled button could not be focused to read that).
import { useId } from "react";
import { useHeadroom, useIntents } from "../app-context";
import { useAction } from "../hooks/use-action";

const NO_REDIS = "Start Headroom with HEADROOM_REDIS_URL to share providers across machines.";

export function ShareSwitch({ providerId, shared }: { providerId: string; shared: boolean }) {
  const intents = useIntents();
  const redisConfigured = useHeadroom((state) => state.redis !== undefined);
  const { error, busy, run } = useAction();
  const tipId = useId();
  const errorId = useId();
  // Making a provider local again needs no Redis, so a shared one can always be switched off.
  const unavailable = !redisConfigured && !shared;
  const inert = unavailable || busy;
  const describedBy = [unavailable && tipId, error && errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="share">
      <span className="share-control">
        <button
          type="button"
          role="switch"
          className="switch"
          aria-checked={shared}
          aria-disabled={inert || undefined}
          aria-describedby={describedBy}
          data-focus="share"
          onClick={() => void (inert ? undefined : run(intents.configure(providerId, { shared: !shared })))}
        >
          <span className="switch-track" aria-hidden="true">
            <span className="switch-knob" />
          </span>
          <span>
            Share <span className="visually-hidden">{providerId} </span>across machines
          </span>
        </button>
        {unavailable && (
          <span role="tooltip" id={tipId} className="tip">
            {NO_REDIS}
          </span>
        )}
      </span>
      {error && (
        <span role="status" id={errorId} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}
