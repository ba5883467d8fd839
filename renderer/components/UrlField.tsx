// A URL saved on purpose (SPEC §4 "Edits that are deliberate"): only Enter or its Save button
// send it, and only once it parses as an http(s) URL; Escape puts the saved value back; a
// field with unsaved changes says so; leaving it keeps the draft but never sends half a URL.
// The message line has its own fixed place, so an error moves none of the other controls.
import { useId, useState, type KeyboardEvent } from "react";
import type { Result } from "../../shared/contract";
import { useAction } from "../hooks/use-action";

interface UrlFieldProps {
  label: string;
  visibleLabel: string;
  value: string;
  placeholder: string;
  /** Saves the trimmed text; "" clears the setting. */
  onSave: (text: string) => Promise<Result<unknown>> | Result<unknown>;
  focusKey?: string;
}

/** Why a text is not a URL the host would take, in words; undefined when it is one. */
function urlProblem(text: string): string | undefined {
  if (text === "") return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "Type a whole address, such as https://api.anthropic.com.";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "The address must start with http:// or https://.";
  return undefined;
}

export function UrlField({ label, visibleLabel, value, placeholder, onSave, focusKey }: UrlFieldProps) {
  const [draft, setDraft] = useState<string>();
  const { error, setError, busy, run } = useAction();
  const messageId = useId();
  const unsaved = draft !== undefined && draft.trim() !== value;

  async function save(): Promise<void> {
    if (draft === undefined || busy) return;
    const text = draft.trim();
    if (text === value) {
      setDraft(undefined);
      return;
    }
    const problem = urlProblem(text);
    if (problem) {
      setError(problem);
      return;
    }
    const result = await run(Promise.resolve(onSave(text)));
    if (result.ok) setDraft(undefined);
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      void save();
    } else if (event.key === "Escape" && (draft !== undefined || error)) {
      // Handled here: the details panel around it stays open.
      event.preventDefault();
      setDraft(undefined);
      setError(undefined);
    }
  };

  return (
    <div className="field url-field">
      <label>
        <span className="field-label">
          {visibleLabel}
          {unsaved && <span className="unsaved"> · unsaved</span>}
        </span>
        <span className="url-row">
          <input
            type="url"
            className="wide"
            aria-label={label}
            data-focus={focusKey}
            data-unsaved={unsaved || undefined}
            placeholder={placeholder}
            spellCheck={false}
            autoComplete="off"
            value={draft ?? value}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? messageId : undefined}
            onChange={(event) => {
              setDraft(event.target.value);
              setError(undefined);
            }}
            onKeyDown={onKeyDown}
          />
          <button type="button" className="small" aria-label={`Save ${label}`} aria-disabled={!unsaved || busy || undefined} onClick={() => void save()}>
            Save
          </button>
        </span>
      </label>
      <p role="status" id={messageId} className="field-error field-message">
        {error}
      </p>
    </div>
  );
}
