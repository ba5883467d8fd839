// One provider at a glance, as a compact tile: state, numbers, plan windows, the two editors
// touched daily, the first holders and waiters and a small chart; the rest is in its details.
// Memoised on its id and reading its own entry, so a snapshot that changed another provider
// does not render this card again. Every part has a fixed height: a pause, a banner or agents
// coming and going never move the editors or the cards around it.
import { memo } from "react";
import { useHeadroom } from "../app-context";
import { countRender } from "../render-count";
import { CardNumbers } from "./CardNumbers";
import { CardSlot } from "./CardSlot";
import { CooldownControl } from "./CooldownControl";
import { DetailsButton } from "./DetailsPanel";
import { LeaseList } from "./LeaseList";
import { LimitEditor } from "./LimitEditor";
import { LoadChart } from "./LoadChart";
import { PlanMeters } from "./PlanMeters";
import { SharedBadge } from "./SharedState";
import { StateChip } from "./StateChip";

export const ProviderCard = memo(function ProviderCard({ providerId }: { providerId: string }) {
  countRender(`card:${providerId}`);
  const entry = useHeadroom((state) => state.providers[providerId]);
  const open = useHeadroom((state) => state.details === providerId);
  if (!entry) return null;
  return (
    <section className={open ? "card card-open" : "card"} aria-label={providerId} data-region={providerId} id={`provider-${providerId}`}>
      <header className="card-head">
        <h3 tabIndex={-1} data-focus="heading" title={providerId}>
          {providerId}
        </h3>
        <StateChip entry={entry} />
        {entry.shared && <SharedBadge hosts={entry.hosts} />}
      </header>
      <CardNumbers entry={entry} />
      <PlanMeters entry={entry} />
      <CardSlot entry={entry} />
      <div className="controls">
        <div className="limit-row">
          <LimitEditor providerId={providerId} limit={entry.limit} />
          <DetailsButton providerId={providerId} />
        </div>
        <CooldownControl providerId={providerId} cooldownMs={entry.cooldownMs} />
      </div>
      <LeaseList providerId={providerId} max={3} />
      <LoadChart providerId={providerId} limit={entry.limit} height={48} />
    </section>
  );
});
