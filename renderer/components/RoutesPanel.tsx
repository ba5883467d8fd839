import { checkBreakerSettingsBody } from "../../shared/validate";
import { useHeadroom, useIntents } from "../app-context";
import { CommitField, refused, typedNumber } from "./CommitField";
import { RouteRow } from "./RouteRow";

function BreakerSettingsForm() {
  const intents = useIntents();
  const settings = useHeadroom((state) => state.routeSettings);
  if (!settings) return null;
  const save = (field: "threshold" | "cooldownMs") => (draft: string) => {
    const checked = checkBreakerSettingsBody({ [field]: typedNumber(draft) });
    return checked.ok ? intents.setRouteSettings(checked.value) : refused(checked.message);
  };
  return (
    <div className="breaker-settings">
      <CommitField
        label="Breaker threshold"
        visibleLabel="Open after failures"
        value={String(settings.threshold)}
        inputProps={{ type: "number", min: 1, className: "narrow" }}
        onCommit={save("threshold")}
      />
      <CommitField
        label="Breaker cooldown ms"
        visibleLabel="Open for (ms, 0 = off)"
        value={String(settings.cooldownMs)}
        inputProps={{ type: "number", min: 0, className: "narrow" }}
        onCommit={save("cooldownMs")}
      />
    </div>
  );
}

export function RoutesPanel() {
  const keys = useHeadroom((state) => state.routeKeys);
  return (
    <section className="panel" aria-labelledby="routes-heading">
      <h2 id="routes-heading">Route breakers</h2>
      <BreakerSettingsForm />
      {keys.length === 0 ? (
        <p className="muted">No routes yet: they appear when agents or the proxy report outcomes.</p>
      ) : (
        <div className="table-scroll">
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
