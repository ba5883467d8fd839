import { useEffect, useRef } from "react";
import { useHeadroom } from "../app-context";
import { keepFocus } from "../focus";
import { ActivityList } from "./ActivityList";
import { AddProviderForm } from "./AddProviderForm";
import { ChartRange } from "./ChartRange";
import { Notices } from "./Notices";
import { ProviderFilter } from "./ProviderFilter";
import { ProviderList } from "./ProviderList";
import { RoutesPanel } from "./RoutesPanel";
import { TokenRefused } from "./TokenRefused";
import { TopBar } from "./TopBar";

export function App() {
  const connection = useHeadroom((state) => state.connection);
  const loaded = useHeadroom((state) => state.loaded);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => (root.current ? keepFocus(root.current) : undefined), []);
  if (connection === "unauthorized") return <TokenRefused />;
  // Until the host answers again the numbers are from before: shown faded, controls off.
  const stale = connection !== "live";
  return (
    <div className="app" ref={root}>
      <TopBar />
      <Notices />
      <fieldset className={stale ? "body stale" : "body"} disabled={stale} aria-busy={stale || undefined}>
        <main>
          <section className="panel" aria-labelledby="providers-heading">
            <div className="panel-head">
              <h2 id="providers-heading">Providers</h2>
              <ProviderFilter />
              <span className="spacer" />
              <span className="field-label">Charts</span>
              <ChartRange />
            </div>
            <AddProviderForm />
            <ProviderList />
          </section>
          {/* Below the cards only once they are in: arriving cards must not push them down. */}
          {loaded && <RoutesPanel />}
          {loaded && <ActivityList />}
        </main>
      </fieldset>
    </div>
  );
}
