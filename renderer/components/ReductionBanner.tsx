// SPEC §4's banner: shown inside the card after an automatic reduction until dismissed; after
// that a quiet line keeps `Restore limit to N`, so the original limit is never lost.
import type { MouseEvent } from "react";
import type { ConcurrencyStatusEntry } from "../../shared/types";
import { useIntents } from "../app-context";
import { focusWhenPresent, regionOf } from "../focus";
import { useAction } from "../hooks/use-action";

const LIMIT_FIELD = "[data-focus=limit]";
const RESTORE = "[data-focus=restore]";

export function ReductionBanner({ entry }: { entry: ConcurrencyStatusEntry }) {
  const intents = useIntents();
  const { error, busy, run } = useAction();
  const { providerId, autoReducedFrom } = entry;
  const dismissed = entry.noticeDismissed;

  async function restore(event: MouseEvent<HTMLButtonElement>, from: number): Promise<void> {
    const card = regionOf(event.currentTarget);
    const result = await run(intents.setLimit(providerId, from));
    if (result.ok) focusWhenPresent(card, LIMIT_FIELD);
  }
  async function dismiss(event: MouseEvent<HTMLButtonElement>): Promise<void> {
    const card = regionOf(event.currentTarget);
    const result = await run(intents.dismissNotice(providerId));
    if (result.ok) focusWhenPresent(card, RESTORE, LIMIT_FIELD);
  }

  const restoreButton = autoReducedFrom !== undefined && (
    <button
      type="button"
      className={dismissed ? "small" : "small primary"}
      data-focus="restore"
      aria-disabled={busy || undefined}
      onClick={(event) => void (busy ? undefined : restore(event, autoReducedFrom))}
    >
      {/* One word beside the badge that says `from N`: the row holds badge, Restore and Dismiss whole. */}
      <span aria-hidden="true">Restore</span>
      <span className="visually-hidden">Restore limit to {autoReducedFrom}</span>
    </button>
  );
  const errorLine = error && (
    <p role="status" className="field-error">
      {error}
    </p>
  );

  const badge = <span className="badge warn">{autoReducedFrom !== undefined ? `auto-reduced from ${autoReducedFrom}` : "auto-reduced"}</span>;
  if (dismissed) {
    return (
      <div className="reduced-line">
        {badge}
        {restoreButton}
        {errorLine}
      </div>
    );
  }
  const notice = entry.notice ?? `Limit for ${providerId} was lowered after a rate limit (429).`;
  // The card has room for the badge and the two buttons; the sentence is read out with them,
  // shown on hover, and in full in `Needs you`.
  return (
    <div role="alert" className="banner" title={notice}>
      <p className="visually-hidden">{notice}</p>
      <div className="banner-actions">
        {badge}
        {restoreButton}
        <button
          type="button"
          className="small icon"
          aria-label="Dismiss"
          title="Dismiss: hide this banner (the badge and Restore stay)"
          aria-disabled={busy || undefined}
          onClick={(event) => void (busy ? undefined : dismiss(event))}
        >
          ✕
        </button>
      </div>
      {errorLine}
    </div>
  );
}
