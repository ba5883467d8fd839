// A field that saves on Enter or blur. A blur that changed nothing sends nothing: saving the
// same limit by accident would clear an auto-reduction (SPEC §1, manual limit).
import { useId, useRef, useState, type InputHTMLAttributes } from "react";
import type { Result } from "../../shared/contract";
import { useAction } from "../hooks/use-action";

export type Commit = (draft: string) => Promise<Result<unknown>> | Result<unknown>;

interface CommitFieldProps {
  /** The accessible name, exact where SPEC §4 names it. */
  label: string;
  /** Shown when the label is not visible text. */
  visibleLabel?: string;
  value: string;
  onCommit: Commit;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
}

export function CommitField({ label, visibleLabel, value, onCommit, inputProps }: CommitFieldProps) {
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

  return (
    <div className="field">
      <label>
        <span className="field-label">{visibleLabel ?? label}</span>
        <input
          {...inputProps}
          aria-label={label}
          aria-describedby={error ? messageId : undefined}
          aria-invalid={error ? true : undefined}
          value={draft ?? value}
          onChange={(event) => {
            setDraft(event.target.value);
            setError(undefined);
          }}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              void commit(draft ?? value);
            } else if (event.key === "Escape") {
              setDraft(undefined);
              setError(undefined);
            }
          }}
          onBlur={() => {
            if (draft === undefined || unchanged(draft, value)) {
              setDraft(undefined);
              return;
            }
            if (draft !== saving.current) void commit(draft);
          }}
        />
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

/** A number typed into a field, or undefined when it is empty or not a number. */
export function typedNumber(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const value = Number(text);
  return Number.isNaN(value) ? undefined : value;
}

/** A local validation failure in the shape of a bridge answer, so it shows the same way. */
export const refused = (message: string): Result<never> => ({ ok: false, code: "invalid_input", message });
