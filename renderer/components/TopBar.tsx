// The bar that stays in view: the connection, and what needs the user, each count a button
// that brings the item into view. It also names what needs attention in the document title.
import { useEffect, useMemo } from "react";
import { useHeadroom } from "../app-context";
import { attentionOf, titleOf, type Attention } from "../store/attention";
import { ChartRange } from "./ChartRange";
import { ConnectionStatus } from "./ConnectionStatus";
import { NotifyButton } from "./NotifyButton";
import { ProviderFilter } from "./ProviderFilter";
import { RedisStatus } from "./RedisStatus";

function bringIntoView(elementId: string, focusSelector: string): void {
  const target = document.getElementById(elementId);
  if (!target) return;
  target.scrollIntoView({ block: "start", behavior: "smooth" });
  target.querySelector<HTMLElement>(focusSelector)?.focus({ preventScroll: true });
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

function Count({ count, text, className, target, focus }: { count: number; text: string; className: string; target: string | undefined; focus: string }) {
  return (
    <button
      type="button"
      className={`count ${count > 0 ? className : "zero"}`}
      aria-disabled={count === 0 || undefined}
      onClick={() => target !== undefined && count > 0 && bringIntoView(target, focus)}
    >
      {text}
    </button>
  );
}

export function TopBar() {
  // A string is a stable snapshot: the bar renders only when what it says changed.
  const key = useHeadroom((state) => JSON.stringify(attentionOf(state)));
  const attention = useMemo(() => JSON.parse(key) as Attention, [key]);
  const title = titleOf(attention);
  useEffect(() => {
    document.title = title;
  }, [title]);
  const firstPaused = attention.paused[0];
  const openRoutes = attention.openRoutes.length;
  return (
    <header className="top-bar">
      <h1>Headroom</h1>
      <ConnectionStatus />
      <RedisStatus />
      <span className="spacer" />
      <nav className="counts" aria-label="Needs attention">
        <Count
          count={attention.paused.length}
          text={plural(attention.paused.length, "paused provider", "paused providers")}
          className="alert"
          target={firstPaused && `provider-${firstPaused}`}
          focus="[data-focus=heading]"
        />
        <Count count={openRoutes} text={plural(openRoutes, "open route", "open routes")} className="alert" target="routes" focus="[data-focus=reset]" />
        <Count
          count={attention.queued}
          text={plural(attention.queued, "queued agent", "queued agents")}
          className="warn"
          target={attention.queuedAt && `provider-${attention.queuedAt}`}
          focus="[data-focus=heading]"
        />
      </nav>
      <ProviderFilter />
      <ChartRange />
      <NotifyButton />
    </header>
  );
}
