// What a card leaves out, one click away (SPEC §4 "At a glance"): a sheet over the side column
// named `<id> details` with every holder and waiter, a larger chart, the upstream and the lines
// agents need, the usage gate, every plain setting (shared/provider-settings.ts) and sharing. Escape or
// `Close details` closes it and focus goes back to the button that opened it.
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { SETTING_NAMES } from "../../shared/provider-settings";
import type { ConcurrencyStatusEntry, ProviderConfigView, UpstreamBucket, UpstreamLimits } from "../../shared/types";
import { useHeadroom, useHeadroomStore, useIntents } from "../app-context";
import { focusWhenPresent } from "../focus";
import { formatDuration } from "../../shared/duration";
import { formatClock } from "../format";
import { Explained } from "./Explained";
import { LeaseList } from "./LeaseList";
import { SettingField } from "./SettingField";
import { LoadChart } from "./LoadChart";
import { PlanMeters } from "./PlanMeters";
import { RemoveProvider } from "./RemoveProvider";
import { ShareSwitch } from "./ShareSwitch";
import { UpstreamMeters } from "./UpstreamMeters";
import { UpstreamSection } from "./UpstreamSection";
import { UrlField } from "./UrlField";

const DETAILS_BUTTON = "[data-focus=details]";
const DETAILS_ROOT = "details-root";

const cardOf = (providerId: string) => document.getElementById(`provider-${providerId}`);

export function DetailsButton({ providerId }: { providerId: string }) {
  const store = useHeadroomStore();
  const open = useHeadroom((state) => state.details === providerId);
  return (
    <button
      type="button"
      className="small quiet details-button"
      data-focus="details"
      aria-label={`Details for ${providerId}`}
      aria-expanded={open}
      onClick={() => store.setState({ details: store.getState().details === providerId ? undefined : providerId })}
    >
      Details
    </button>
  );
}

/** `Set upstream for <id>`: opens the details and puts the cursor in the upstream field. */
export function SetUpstreamButton({ providerId, text }: { providerId: string; text: string }) {
  const store = useHeadroomStore();
  return (
    <button
      type="button"
      className="small"
      aria-label={`Set upstream for ${providerId}`}
      onClick={() => {
        store.setState({ details: providerId });
        focusWhenPresent(document.body, `#${DETAILS_ROOT} [data-focus=upstream]`);
      }}
    >
      {text}
    </button>
  );
}

export function closeDetails(store: ReturnType<typeof useHeadroomStore>): void {
  const open = store.getState().details;
  if (open === undefined) return;
  store.setState({ details: undefined });
  focusWhenPresent(cardOf(open), DETAILS_BUTTON);
}

function bucketText(name: string, bucket: UpstreamBucket | undefined): string | undefined {
  if (!bucket || bucket.remaining === undefined) return undefined;
  const of = bucket.limit === undefined ? "" : ` of ${bucket.limit}`;
  const reset = bucket.resetAt === undefined ? "" : `, resets ${formatClock(bucket.resetAt)}`;
  return `${bucket.remaining}${of} ${name} left${reset}`;
}

/** The provider's own rate-limit headers as last seen (SPEC §6), also the buckets without a known limit. */
function upstreamText(limits: UpstreamLimits): string {
  const parts = [
    bucketText("requests", limits.requests),
    bucketText("tokens", limits.tokens),
    bucketText("input tokens", limits.inputTokens),
    bucketText("output tokens", limits.outputTokens),
  ].filter((part) => part !== undefined);
  return `${parts.length > 0 ? parts.join(" · ") : "no remaining counts"} (seen ${formatClock(limits.seenAt)})`;
}

function Settings({ entry }: { entry: ConcurrencyStatusEntry }) {
  const intents = useIntents();
  const { providerId } = entry;
  const [config, setConfig] = useState<ProviderConfigView>();
  useEffect(() => {
    let current = true;
    void intents.providerConfig(providerId).then((result) => current && result.ok && setConfig(result.value));
    return () => {
      current = false;
    };
  }, [intents, providerId, entry.upstream]);
  return (
    <>
      <UpstreamSection providerId={providerId} upstream={entry.upstream} />
      <UrlField
        label={`Usage gate URL for ${providerId}`}
        visibleLabel="Usage gate URL"
        placeholder="https://example.com/usage (JSON with concurrent_sessions)"
        value={config?.usageGate?.url ?? ""}
        onSave={async (text) => {
          const result = await intents.configure(providerId, { usageGate: text === "" ? null : { url: text } });
          if (result.ok) setConfig(result.value);
          return result;
        }}
      />
      {SETTING_NAMES.map((name) => (
        <SettingField key={name} providerId={providerId} name={name} config={config} onSaved={setConfig} />
      ))}
      <ShareSwitch providerId={providerId} shared={entry.shared === true} />
    </>
  );
}

/** The open provider's details, in the side column; none when no details are open. */
export function Details() {
  const entry = useHeadroom((state) => (state.details === undefined ? undefined : state.providers[state.details]));
  return entry ? <DetailsPanel key={entry.providerId} entry={entry} /> : null;
}

function DetailsPanel({ entry }: { entry: ConcurrencyStatusEntry }) {
  const store = useHeadroomStore();
  const heading = useRef<HTMLHeadingElement>(null);
  const panel = useRef<HTMLElement>(null);
  const { providerId } = entry;
  // Opened by a click or a key: the sheet takes focus (unless a control in it already has it).
  useEffect(() => {
    if (!panel.current?.contains(document.activeElement)) heading.current?.focus({ preventScroll: true });
  }, []);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    event.preventDefault();
    closeDetails(store);
  };
  return (
    <section ref={panel} id={DETAILS_ROOT} className="details" aria-label={`${providerId} details`} data-region={`${providerId} details`} onKeyDown={onKeyDown}>
      <header className="details-head">
        <h2 ref={heading} tabIndex={-1} data-focus="heading">
          {providerId}
        </h2>
        <span className="spacer" />
        <button type="button" className="small" onClick={() => closeDetails(store)}>
          Close details
        </button>
      </header>
      <dl className="stats">
        <div>
          <dt>Active</dt>
          <dd>{entry.active} / {entry.limit}</dd>
        </div>
        <div>
          <dt>Queued</dt>
          <dd>{entry.queued}</dd>
        </div>
        <div>
          <dt>
            <Explained term="Recycling" explanation="Slots just released and resting for the cooldown before the next agent gets them." />
          </dt>
          <dd>{entry.recycling}</dd>
        </div>
        <div className="wide-stat">
          <dt>Wait</dt>
          <dd>{entry.waitP50Ms === undefined ? "no admissions in 5 min" : `p50 ${formatDuration(entry.waitP50Ms)} · p95 ${formatDuration(entry.waitP95Ms ?? 0)}`}</dd>
        </div>
        <div>
          <dt>Cooldown</dt>
          <dd>{formatDuration(entry.cooldownMs)}</dd>
        </div>
        {entry.upstreamLimits && (
          <div className="full-stat">
            <dt>Upstream says</dt>
            <dd>{upstreamText(entry.upstreamLimits)}</dd>
          </div>
        )}
      </dl>
      {entry.windows && <PlanMeters entry={entry} all />}
      <UpstreamMeters entry={entry} />
      <LoadChart providerId={providerId} limit={entry.limit} height={140} />
      <LeaseList providerId={providerId} />
      <Settings entry={entry} />
      <footer className="card-foot">
        <RemoveProvider providerId={providerId} />
      </footer>
    </section>
  );
}
