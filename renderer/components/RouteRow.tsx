import { memo } from "react";
import type { RouteEntry } from "../../shared/types";
import { useHeadroom, useIntents } from "../app-context";
import { formatRemaining } from "../format";
import { useAction } from "../hooks/use-action";
import { useNow } from "../hooks/use-now";

function Remaining({ route }: { route: RouteEntry }) {
  const ticking = route.state === "open" && route.openUntil !== undefined;
  const now = useNow(250, ticking);
  if (ticking) return <>{formatRemaining((route.openUntil as number) - now)}</>;
  if (route.state === "half-open") return <>{route.probeOwner ? `probing (${route.probeOwner})` : "ready to probe"}</>;
  return <>—</>;
}

export const RouteRow = memo(function RouteRow({ routeKey }: { routeKey: string }) {
  const route = useHeadroom((state) => state.routes[routeKey]);
  const intents = useIntents();
  const { error, busy, run } = useAction();
  if (!route) return null;
  const { targetId, runtimeId, modelId } = route;
  return (
    <tr className={`route-${route.state}`}>
      <td>{targetId}</td>
      <td>{runtimeId}</td>
      <td>{modelId}</td>
      <td>
        <span className={`state state-${route.state}`}>{route.state}</span>
      </td>
      <td>
        <Remaining route={route} />
      </td>
      <td>{route.reason || "—"}</td>
      <td>{route.consecutiveFailures}</td>
      <td>
        {route.state !== "closed" && (
          <button type="button" className="small" disabled={busy} onClick={() => void run(intents.resetRoute({ targetId, runtimeId, modelId }))}>
            Reset
          </button>
        )}
        {error && (
          <span role="status" className="field-error">
            {error}
          </span>
        )}
      </td>
    </tr>
  );
});
