import { useShallow } from "zustand/react/shallow";
import { useHeadroom } from "../app-context";
import { sortedProviderIds } from "../store/attention";
import { AddProviderForm } from "./AddProviderForm";
import { ProviderCard } from "./ProviderCard";
import { SetupLines } from "./SetupLines";

export function ProviderList() {
  const ids = useHeadroom(useShallow((state) => sortedProviderIds(state, state.filter)));
  const total = useHeadroom((state) => state.providerIds.length);
  const loaded = useHeadroom((state) => state.loaded);
  return (
    <>
      {loaded && total === 0 && <SetupLines />}
      {total > 0 && ids.length === 0 && (
        <p className="muted" role="status">
          No provider matches the filter.
        </p>
      )}
      <div className="cards">
        {ids.map((id) => (
          <ProviderCard key={id} providerId={id} />
        ))}
        {/* The last tile, once the cards are in (arriving cards must not push it along): adding
            a provider puts its card before it, in id order. */}
        {loaded && <AddProviderForm />}
      </div>
    </>
  );
}
