// One provider at a glance. Memoised on its id and reading its own entry from the store, so a
// snapshot that changed another provider does not render this card again.
import { memo } from "react";
import { useHeadroom } from "../app-context";
import { countRender } from "../render-count";
import { CooldownControl } from "./CooldownControl";
import { LeaseList } from "./LeaseList";
import { LimitEditor } from "./LimitEditor";
import { LoadChart } from "./LoadChart";
import { PauseCountdown } from "./PauseCountdown";
import { ProviderStats } from "./ProviderStats";
import { ReductionBanner } from "./ReductionBanner";
import { RemoveProvider } from "./RemoveProvider";
import { UpstreamSection } from "./UpstreamSection";

export const ProviderCard = memo(function ProviderCard({ providerId }: { providerId: string }) {
  countRender(`card:${providerId}`);
  const entry = useHeadroom((state) => state.providers[providerId]);
  if (!entry) return null;
  return (
    <section className="card" aria-label={providerId}>
      <header className="card-head">
        <h2>{providerId}</h2>
        {entry.autoReduced && <span className="badge warn">auto-reduced</span>}
        {entry.paused && <span className="badge alert">paused</span>}
        <span className="spacer" />
        <RemoveProvider providerId={providerId} />
      </header>
      {entry.autoReduced && !entry.noticeDismissed && <ReductionBanner entry={entry} />}
      {entry.paused && entry.pausedUntil !== undefined && <PauseCountdown providerId={providerId} pausedUntil={entry.pausedUntil} {...(entry.pauseReason === undefined ? {} : { reason: entry.pauseReason })} />}
      <ProviderStats entry={entry} />
      <div className="controls">
        <LimitEditor providerId={providerId} limit={entry.limit} />
        <CooldownControl providerId={providerId} cooldownMs={entry.cooldownMs} />
      </div>
      <LoadChart providerId={providerId} limit={entry.limit} />
      <LeaseList providerId={providerId} />
      <UpstreamSection providerId={providerId} upstream={entry.upstream} />
    </section>
  );
});
