// A field that saves on Enter or blur. Enter or a blur that changed nothing sends nothing:
// saving the same limit by accident would clear an auto-reduction (SPEC §1, manual limit).
import { useId, useRef, useState, type InputHTMLAttributes, type KeyboardEvent, type ReactNode } from "react";
import type { Result } from "../../shared/contract";
import { useAction } from "../hooks/use-action";
import { NumberInput, typedNumber, type NumberRange } from "./NumberInput";

type Commit = (draft: string) => Promise<Result<unknown>> | Result<unknown>;

interface CommitFieldProps {
  /** The accessible name, exact where SPEC §4 names it. */
  label: string;
  /** Shown when the label is not visible text. */
  visibleLabel?: ReactNode;
  value: string;
  onCommit: Commit;
  /** A number field: steps with its arrow keys, never with the wheel. */
  range?: NumberRange;
  inputProps?: Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange">;
  /** Marks the input for focusWhenPresent (`[data-focus=…]`). */
  focusKey?: string;
}

export function CommitField({ label, visibleLabel, value, onCommit, range, inputProps, focusKey }: CommitFieldProps) {
  const [draft, setDraft] = useState<string>();
  const { error, setError, run } = useAction();
  const messageId = useId();
  // The text being saved right now: Enter then a quick Tab must not save it twice.
  const saving = useRef<string>(undefined);

  async function commit(text: string): Promise<void> {
    saving.current = text;
    const result = await run(Promise.resolve(onCommit(text)));
    saving.current = undefined;
    if (result.ok) setDraft(undefined);
  }

  /** Saves the draft when it differs from the saved value; otherwise only forgets it. */
  function settle(): void {
    if (draft === undefined || unchanged(draft, value)) {
      setDraft(undefined);
      setError(undefined);
      return;
    }
    if (draft !== saving.current) void commit(draft);
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      settle();
    } else if (event.key === "Escape") {
      setDraft(undefined);
      setError(undefined);
    }
  };
  const shared = {
    ...inputProps,
    "aria-label": label,
    "data-focus": focusKey,
    "aria-describedby": error ? messageId : undefined,
    "aria-invalid": error ? true : undefined,
    onKeyDown,
    onBlur: settle,
  };
  const onValue = (text: string) => {
    setDraft(text);
    setError(undefined);
  };

  return (
    <div className="field">
      <label>
        <span className="field-label">{visibleLabel ?? label}</span>
        {range ? (
          <NumberInput {...shared} range={range} value={draft ?? value} onValue={onValue} />
        ) : (
          <input {...shared} value={draft ?? value} onChange={(event) => onValue(event.target.value)} />
        )}
      </label>
      {error && (
        <p role="status" id={messageId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** "2.0" or "02" over a limit of 2 changed nothing either: numbers compare as numbers. */
function unchanged(draft: string, value: string): boolean {
  if (draft === value) return true;
  const typed = typedNumber(draft);
  return typed !== undefined && typed === typedNumber(value);
}

export { typedNumber };

/** A local validation failure in the shape of a bridge answer, so it shows the same way. */
export const refused = (message: string): Result<never> => ({ ok: false, code: "invalid_input", message });
