// An action that asks once more in place: the question takes focus, Escape or Cancel puts
// focus back on the button that asked (SPEC §4: Release and Remove confirm).
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { Result } from "../../shared/contract";
import { useAction } from "../hooks/use-action";

interface ConfirmButtonProps {
  /** The button's accessible name, unique in its region. */
  name: string;
  /** Its visible text (the name carries what makes it unique). */
  text: ReactNode;
  question: string;
  confirmName: string;
  action: () => Promise<Result<unknown>>;
  /**
   * Called when the user confirms, with the element that holds the question, before the
   * action runs (the push that removes it may come before the answer); what it returns runs
   * after a successful action.
   */
  onConfirm?: (from: HTMLElement) => () => void;
  /** Marks the asking button for focusWhenPresent (`[data-focus=…]`). */
  focusKey?: string;
}

export function ConfirmButton({ name, text, question, confirmName, action, onConfirm, focusKey }: ConfirmButtonProps) {
  const [confirming, setConfirming] = useState(false);
  const { error, busy, run } = useAction();
  const yes = useRef<HTMLButtonElement>(null);
  const ask = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (confirming) yes.current?.focus();
    else if (returnFocus.current) ask.current?.focus();
    returnFocus.current = false;
  }, [confirming]);

  const cancel = () => {
    returnFocus.current = true;
    setConfirming(false);
  };

  if (!confirming) {
    return (
      <button ref={ask} type="button" className="small quiet" aria-label={name} data-focus={focusKey} onClick={() => setConfirming(true)}>
        {text}
      </button>
    );
  }
  return (
    <span
      className="confirm"
      role="group"
      aria-label={question}
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          event.preventDefault();
          cancel();
        }
      }}
    >
      <span>{question}</span>
      <button
        ref={yes}
        type="button"
        className="small danger"
        aria-disabled={busy || undefined}
        onClick={async (event) => {
          if (busy) return;
          const done = onConfirm?.(event.currentTarget);
          const result = await run(action());
          if (result.ok) done?.();
        }}
      >
        {confirmName}
      </button>
      <button type="button" className="small" onClick={cancel}>
        Cancel
      </button>
      {error && (
        <span role="status" className="field-error">
          {error}
        </span>
      )}
    </span>
  );
}
