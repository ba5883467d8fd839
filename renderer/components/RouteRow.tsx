import { memo, useLayoutEffect, useRef } from "react";
import type { RouteEntry } from "../../shared/types";
import { useHeadroom, useIntents } from "../app-context";
import { formatRemaining } from "../../shared/duration";
import { handOffFocus } from "../focus";
import { useAction } from "../hooks/use-action";
import { useNow } from "../hooks/use-now";
import { Explained } from "./Explained";

function Remaining({ route }: { route: RouteEntry }) {
  const ticking = route.state === "open" && route.openUntil !== undefined;
  const now = useNow(500, ticking);
  if (ticking) return <>{formatRemaining((route.openUntil as number) - now)}</>;
  // The probe's owner is a run id: meaningless to a person, so it is not shown.
  if (route.state === "half-open") return <>{route.probeOwner ? "probe in progress" : "ready to probe"}</>;
  return <>—</>;
}

const routeName = ({ targetId, runtimeId, modelId }: RouteEntry) => `${targetId}/${runtimeId}/${modelId}`;

function ResetButton({ route }: { route: RouteEntry }) {
  const intents = useIntents();
  const { error, busy, run } = useAction();
  const button = useRef<HTMLButtonElement>(null);
  // Reset closes the route, which takes this button away: focus goes to the next one.
  useLayoutEffect(() => {
    const element = button.current;
    return () => handOffFocus(element, "[data-focus=reset]", "[data-focus=breaker]");
  }, []);
  const { targetId, runtimeId, modelId } = route;
  return (
    <>
      <button
        ref={button}
        type="button"
        className="small"
        data-focus="reset"
        aria-label={`Reset ${routeName(route)}`}
        aria-disabled={busy || undefined}
        onClick={() => void (busy ? undefined : run(intents.resetRoute({ targetId, runtimeId, modelId })))}
      >
        Reset
      </button>
      {error && (
        <span role="status" className="field-error">
          {error}
        </span>
      )}
    </>
  );
}

export const RouteRow = memo(function RouteRow({ routeKey }: { routeKey: string }) {
  const route = useHeadroom((state) => state.routes[routeKey]);
  if (!route) return null;
  return (
    <tr className={`route-${route.state}`}>
      <td>{route.targetId}</td>
      <td>{route.runtimeId}</td>
      <td>{route.modelId}</td>
      <td>
        <span className={`state state-${route.state}`}>
          {route.state === "half-open" ? (
            <Explained term="half-open" explanation="The route has rested: one probe run may try it. A success closes it, a failure opens it again." />
          ) : (
            route.state
          )}
        </span>
      </td>
      <td>
        <Remaining route={route} />
      </td>
      <td>{route.reason || "—"}</td>
      <td>{route.consecutiveFailures}</td>
      <td>{route.state !== "closed" && <ResetButton route={route} />}</td>
    </tr>
  );
});
