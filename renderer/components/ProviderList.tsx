import { useHeadroom } from "../app-context";
import { ProviderCard } from "./ProviderCard";

export function ProviderList() {
  const ids = useHeadroom((state) => state.providerIds);
  const loaded = useHeadroom((state) => state.loaded);
  if (loaded && ids.length === 0) {
    return (
      <p className="empty" role="status">
        No providers yet: add a provider, or run <code>npm run demo</code> to watch simulated agents fill the window.
      </p>
    );
  }
  return (
    <div className="cards">
      {ids.map((id) => (
        <ProviderCard key={id} providerId={id} />
      ))}
    </div>
  );
}
