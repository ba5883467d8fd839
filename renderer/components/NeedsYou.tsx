// SPEC §4 `Needs you`: each thing the user can act on, newest first, with its own action. It
// sits in the side column (or, in a narrow window, in a box of fixed height above the cards),
// so items coming and going never move a card.
import { useMemo, useRef, type MouseEvent } from "react";
import type { Result } from "../../shared/contract";
import { useHeadroom, useIntents } from "../app-context";
import { focusWhenPresent } from "../focus";
import { formatRemaining } from "../../shared/duration";
import { formatTimeOfDay } from "../format";
import { useAction } from "../hooks/use-action";
import { useNow } from "../hooks/use-now";
import { needsOf, type NeedItem } from "../store/attention";
import { SetUpstreamButton } from "./DetailsPanel";
import { windowName } from "../../shared/attention-words";

function ActionButton({ name, text, onClick, primary }: { name?: string; text: string; onClick: () => Promise<Result<unknown>>; primary?: boolean }) {
  const { error, busy, run } = useAction();
  return (
    <>
      <button
        type="button"
        className={primary ? "small primary" : "small"}
        aria-label={name}
        aria-disabled={busy || undefined}
        onClick={() => void (busy ? undefined : run(onClick()))}
      >
        {text}
      </button>
      {error && (
        <span role="status" className="field-error">
          {error}
        </span>
      )}
    </>
  );
}

function Countdown({ until }: { until: number }) {
  const now = useNow(1_000);
  return <span className="countdown">{formatRemaining(until - now)}</span>;
}

/** After an action removed its item, focus goes to the next item's first button, else the list. */
function keepFocusIn(event: MouseEvent<HTMLElement>): void {
  const list = event.currentTarget.closest("[data-region]");
  focusWhenPresent(list, "li button", "[data-focus=heading]");
}

function Item({ item }: { item: NeedItem }) {
  const intents = useIntents();
  switch (item.kind) {
    case "reduced":
      return (
        <>
          <p className="need-detail" title={item.notice}>
            {item.notice}
          </p>
          <div className="need-actions" onClickCapture={keepFocusIn}>
            <ActionButton primary text={`Restore limit to ${item.from}`} onClick={() => intents.setLimit(item.providerId, item.from)} />
            <ActionButton text={`Keep ${item.limit}`} onClick={() => intents.acceptNotice(item.providerId)} />
          </div>
        </>
      );
    case "paused": {
      const why =
        item.window?.resetsAt !== undefined
          ? `${windowName(item.window.name)} window resets ${formatTimeOfDay(item.window.resetsAt)}`
          : (item.reason ?? "After a rate limit (429)");
      return (
        <>
          <p className="need-detail" title={why}>
            {/* The countdown first: a long reason is the part cut off. */}
            Resumes in <Countdown until={item.until} /> · {why}
          </p>
          <div className="need-actions" onClickCapture={keepFocusIn}>
            <ActionButton text="Resume now" onClick={() => intents.resume(item.providerId)} />
          </div>
        </>
      );
    }
    case "upstream":
      return (
        <>
          <p className="need-detail" title={item.lastError}>
            Last: {item.lastError} ({formatTimeOfDay(item.lastAt)})
          </p>
          <div className="need-actions">
            <SetUpstreamButton providerId={item.providerId} text={`Set upstream for ${item.providerId}`} />
          </div>
        </>
      );
    case "route": {
      const { targetId, runtimeId, modelId, reason } = item.route;
      return (
        <>
          <p className="need-detail" title={reason}>
            {reason || "It kept failing."}
          </p>
          <div className="need-actions" onClickCapture={keepFocusIn}>
            <ActionButton name={`Reset ${targetId}/${runtimeId}/${modelId}`} text="Reset" onClick={() => intents.resetRoute({ targetId, runtimeId, modelId })} />
          </div>
        </>
      );
    }
    case "overage":
      return (
        <>
          <p className="need-detail">Since {formatTimeOfDay(item.since)}: the plan&apos;s window is used up</p>
          <div className="need-actions" onClickCapture={keepFocusIn}>
            <ActionButton text="Stop at the plan's limit" onClick={() => intents.configure(item.providerId, { overage: "stop" })} />
          </div>
        </>
      );
    case "notice":
      return null;
  }
}

/** A pause about to end needs nobody: it is listed only with this much of it left when it comes. */
const WORTH_LISTING_MS = 2_000;

/** Newest first: each item's first sighting in this window, remembered while it lasts. */
function useNewestFirst(all: NeedItem[]): NeedItem[] {
  const seen = useRef(new Map<string, number>());
  return useMemo(() => {
    const now = Date.now();
    const items = all.filter((item) => item.kind !== "paused" || seen.current.has(item.key) || item.until - now >= WORTH_LISTING_MS);
    const keys = new Set(items.map((item) => item.key));
    for (const key of seen.current.keys()) if (!keys.has(key)) seen.current.delete(key);
    items.forEach((item, i) => {
      // Items found together keep the list's own order among themselves.
      if (!seen.current.has(item.key)) seen.current.set(item.key, now - i / 1_000);
    });
    return items.sort((a, b) => seen.current.get(b.key)! - seen.current.get(a.key)!);
  }, [all]);
}

export function NeedsYou() {
  // A string is a stable snapshot: the list renders only when what it says changed.
  const key = useHeadroom((state) => JSON.stringify(needsOf(state)));
  const items = useNewestFirst(useMemo(() => JSON.parse(key) as NeedItem[], [key]));
  return (
    <section className="panel needs" aria-label="Needs you" data-region="Needs you">
      <h2 tabIndex={-1} data-focus="heading">
        Needs you{items.length > 0 && <span className="count-pill">{items.length}</span>}
      </h2>
      {items.length === 0 ? (
        <p className="muted calm">Nothing needs you</p>
      ) : (
        <ul className="needs-list">
          {items.map((item) => (
            <li key={item.key} aria-label={item.name} className={`need need-${item.kind}`}>
              <p className="need-name" title={item.name}>
                {item.name}
              </p>
              <Item item={item} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
