// The window's two shortcuts (SPEC §4 "Keyboard"): `/` focuses the filter from anywhere but a
// text field; Escape closes the details, or else clears the filter. A control that handles
// Escape itself (a field reverting its draft, a confirmation) marks the event as handled.
import type { HeadroomStore } from "./store/headroom-store";
import { closeDetails } from "./components/DetailsPanel";

const typing = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) && !(target instanceof HTMLInputElement && ["range", "button", "checkbox"].includes(target.type)));

export function watchShortcuts(store: HeadroomStore): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "/" && !typing(event.target)) {
      event.preventDefault();
      document.querySelector<HTMLElement>("[data-focus=filter]")?.focus();
    } else if (event.key === "Escape") {
      if (store.getState().details !== undefined) closeDetails(store);
      else if (store.getState().filter !== "") store.setState({ filter: "" });
    }
  };
  window.addEventListener("keydown", onKeyDown);
  return () => window.removeEventListener("keydown", onKeyDown);
}
