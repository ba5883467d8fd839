// The control panel: the bar that stays in view, the cards tiled in id order with Routes and
// Activity below them, and a side column with `Needs you` and `Agents`, over which a card's
// details open. Nothing in the side column or a card changes another's place.
import { useEffect, useRef } from "react";
import { useHeadroom, useHeadroomStore } from "../app-context";
import { keepFocus } from "../focus";
import { watchShortcuts } from "../keyboard";
import { ActivityList } from "./ActivityList";
import { AgentsList } from "./AgentsList";
import { ConnectRegion } from "./ConnectRegion";
import { Details } from "./DetailsPanel";
import { NeedsYou } from "./NeedsYou";
import { PresetButtons } from "./PresetButtons";
import { ProviderList } from "./ProviderList";
import { RoutesPanel } from "./RoutesPanel";
import { TokenRefused } from "./TokenRefused";
import { TopBar } from "./TopBar";

export function App() {
  const store = useHeadroomStore();
  const connection = useHeadroom((state) => state.connection);
  const loaded = useHeadroom((state) => state.loaded);
  const hasProviders = useHeadroom((state) => state.providerIds.length > 0);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => (root.current ? keepFocus(root.current) : undefined), []);
  useEffect(() => watchShortcuts(store), [store]);
  if (connection === "unauthorized") return <TokenRefused />;
  // Until the host answers again the numbers are from before: shown faded, controls off.
  const stale = connection !== "live";
  return (
    <div className="app" ref={root}>
      <TopBar />
      <fieldset className={stale ? "body stale" : "body"} disabled={stale} aria-busy={stale || undefined}>
        <main className="layout">
          <div className="main-column">
            <section className="providers" aria-labelledby="providers-heading">
              <h2 id="providers-heading" className="visually-hidden">
                Providers
              </h2>
              <ProviderList />
            </section>
            {/* Below the cards only once they are in: arriving cards must not push them down. */}
            {loaded && (
              <div className="lower">
                <RoutesPanel />
                <ActivityList />
                {/* Once providers exist: the presets not added yet and the agents to connect. */}
                {hasProviders && (
                  <>
                    <PresetButtons />
                    <ConnectRegion />
                  </>
                )}
              </div>
            )}
          </div>
          <aside className="side-column" aria-label="What needs you and who runs">
            <NeedsYou />
            <AgentsList />
            <Details />
          </aside>
        </main>
      </fieldset>
    </div>
  );
}
