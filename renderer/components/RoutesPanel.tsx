import { useShallow } from "zustand/react/shallow";
import { LIMITS } from "../../shared/limits";
import type { BreakerSettings } from "../../shared/types";
import { checkBreakerSettingsBody } from "../../shared/validate";
import { useHeadroom, useIntents } from "../app-context";
import { formatDuration } from "../../shared/duration";
import { parseSpokenDuration } from "../duration-words";
import { sortedRouteKeys } from "../store/attention";
import { CommitField, refused, typedNumber } from "./CommitField";
import { Explained } from "./Explained";
import { RouteRow } from "./RouteRow";

function BreakerSettingsForm() {
  const intents = useIntents();
  const settings = useHeadroom((state) => state.routeSettings);
  if (!settings) return <div className="breaker-settings" />;
  const save = (field: keyof BreakerSettings) => (draft: string) => {
    const checked = checkBreakerSettingsBody({ [field]: typedNumber(draft) });
    return checked.ok ? intents.setRouteSettings(checked.value) : refused(checked.message);
  };
  return (
    <div className="breaker-settings">
      <CommitField
        label="Breaker threshold"
        visibleLabel={
          <Explained
            term="Open after failures"
            explanation="How many failures in a row (5xx, 529, timeouts) open a route: its runs are refused until it has rested."
          />
        }
        value={String(settings.threshold)}
        range={LIMITS.threshold}
        focusKey="breaker"
        inputProps={{ className: "narrow" }}
        onCommit={save("threshold")}
      />
      {/* A duration typed as it reads (`2 min 30 s`, `90 s`, a bare number of seconds), not in ms. */}
      <CommitField
        label="Breaker open for"
        visibleLabel={
          <Explained
            term="Open for"
            explanation="How long an open route rests before one probe run may try it (half-open); a success closes it, a failure opens it again. 0 turns the breaker off. Type it as you say it: 30 s, 2 min 30 s."
          />
        }
        value={formatDuration(settings.cooldownMs)}
        inputProps={{ className: "narrow" }}
        onCommit={(draft) => {
          const ms = parseSpokenDuration(draft);
          return ms === undefined ? refused(`Type a duration such as 30 s or 2 min 30 s.`) : save("cooldownMs")(String(ms));
        }}
      />
      {settings.cooldownMs === 0 && <span className="muted setting-reading">breaker off</span>}
    </div>
  );
}

export function RoutesPanel() {
  const keys = useHeadroom(useShallow(sortedRouteKeys));
  return (
    <section className="panel" aria-labelledby="routes-heading" id="routes" data-region="routes">
      <h2 id="routes-heading">Route breakers</h2>
      <BreakerSettingsForm />
      {keys.length === 0 ? (
        <p className="muted">No routes yet: they appear when agents or the proxy report outcomes.</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="group" aria-label="Routes table">
          <table aria-label="Routes">
            <thead>
              <tr>
                <th scope="col">Target</th>
                <th scope="col">Runtime</th>
                <th scope="col">Model</th>
                <th scope="col">State</th>
                <th scope="col">Remaining</th>
                <th scope="col">Reason</th>
                <th scope="col">Failures</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <RouteRow key={key} routeKey={key} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
