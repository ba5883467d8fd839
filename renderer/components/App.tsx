import { ActivityList } from "./ActivityList";
import { AddProviderForm } from "./AddProviderForm";
import { ConnectionStatus } from "./ConnectionStatus";
import { Notices } from "./Notices";
import { ProviderList } from "./ProviderList";
import { RoutesPanel } from "./RoutesPanel";

export function App() {
  return (
    <div className="app">
      <header className="app-head">
        <h1>Headroom</h1>
        <ConnectionStatus />
      </header>
      <Notices />
      <main>
        <section className="panel" aria-labelledby="providers-heading">
          <h2 id="providers-heading">Providers</h2>
          <AddProviderForm />
          <ProviderList />
        </section>
        <RoutesPanel />
        <ActivityList />
      </main>
    </div>
  );
}
