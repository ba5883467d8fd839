// One provider at a glance. Memoised on its id and reading its own entry from the store, so a
// snapshot that changed another provider does not render this card again. Every part has a
// fixed place: a pause, a banner or agents coming and going never move the editors.
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
import { SharedBadge, WaitReason } from "./SharedState";
import { ShareSwitch } from "./ShareSwitch";
import { UpstreamMeters } from "./UpstreamMeters";
import { UpstreamSection } from "./UpstreamSection";

export const ProviderCard = memo(function ProviderCard({ providerId }: { providerId: string }) {
  countRender(`card:${providerId}`);
  const entry = useHeadroom((state) => state.providers[providerId]);
  if (!entry) return null;
  return (
    <section className="card" aria-label={providerId} data-region={providerId} id={`provider-${providerId}`}>
      <header className="card-head">
        <h3 tabIndex={-1} data-focus="heading">
          {providerId}
        </h3>
        {entry.autoReduced && (
          <span className="badge warn">{entry.autoReducedFrom !== undefined ? `auto-reduced from ${entry.autoReducedFrom}` : "auto-reduced"}</span>
        )}
        {entry.paused && <span className="badge alert">paused</span>}
        {entry.shared && <SharedBadge hosts={entry.hosts} />}
      </header>
      <div className={entry.waitReason && entry.autoReduced ? "attention attention-tall" : "attention"}>
        <div className="attention-pause">
          {entry.paused && entry.pausedUntil !== undefined ? (
            <PauseCountdown providerId={providerId} pausedUntil={entry.pausedUntil} reason={entry.pauseReason} />
          ) : (
            !entry.autoReduced && !entry.waitReason && <p className="muted calm">Nothing needs you here.</p>
          )}
        </div>
        {entry.waitReason && <WaitReason reason={entry.waitReason} />}
        {entry.autoReduced && <ReductionBanner entry={entry} />}
      </div>
      <ProviderStats entry={entry} />
      <UpstreamMeters entry={entry} />
      <div className="controls">
        <LimitEditor providerId={providerId} limit={entry.limit} />
        <CooldownControl providerId={providerId} cooldownMs={entry.cooldownMs} />
        <ShareSwitch providerId={providerId} shared={entry.shared === true} />
      </div>
      <LoadChart providerId={providerId} limit={entry.limit} />
      <LeaseList providerId={providerId} />
      <UpstreamSection providerId={providerId} upstream={entry.upstream} />
      <footer className="card-foot">
        <RemoveProvider providerId={providerId} />
      </footer>
    </section>
  );
});
