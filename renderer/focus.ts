// Where focus goes after an action removed the control that had it: the next sensible
// control, once the store's answer has rendered it (tried for a few frames, then given up).

const FRAMES = 30;

/** Focuses the first match of selectors (in order of preference) inside root once one exists. */
export function focusWhenPresent(root: Element | null, ...selectors: string[]): void {
  if (!root) return;
  let frames = 0;
  const attempt = () => {
    for (const selector of selectors) {
      const target = root.querySelector<HTMLElement>(selector);
      if (target && root.isConnected && !target.hasAttribute("disabled")) {
        target.focus();
        return;
      }
    }
    if (++frames < FRAMES) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}

/** The card (or other region) an event happened in. */
export const regionOf = (element: Element): HTMLElement | null => element.closest<HTMLElement>("[data-region]");

/**
 * Keeps focus when the element holding it disappears (a lease ends, a route closes): in the
 * unmount, before the node leaves the page, hand focus to the region's next sensible control.
 */
export function handOffFocus(element: Element | null, ...selectors: string[]): void {
  if (!element || !element.contains(document.activeElement)) return;
  focusWhenPresent(regionOf(element), ...selectors, "[data-focus=heading]");
}

/**
 * A re-render that moves a focused node (cards re-sorted as a provider needs attention)
 * takes it out of the page for an instant, and the browser drops focus to the body. Put it
 * back, unless the user moved it themselves (a pointer press) or it is gone for good.
 */
export function keepFocus(root: HTMLElement): () => void {
  let pressedAt = 0;
  const onPointerDown = () => (pressedAt = performance.now());
  const onFocusOut = (event: FocusEvent) => {
    const left = event.target;
    if (event.relatedTarget !== null || !(left instanceof HTMLElement)) return;
    requestAnimationFrame(() => {
      const userMoved = performance.now() - pressedAt < 500;
      if (!userMoved && document.hasFocus() && document.activeElement === document.body && left.isConnected) left.focus({ preventScroll: true });
    });
  };
  root.addEventListener("pointerdown", onPointerDown, true);
  root.addEventListener("focusout", onFocusOut);
  return () => {
    root.removeEventListener("pointerdown", onPointerDown, true);
    root.removeEventListener("focusout", onFocusOut);
  };
}
