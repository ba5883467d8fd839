import { useId, useRef, useState, type FormEvent } from "react";
import { checkLimit, checkProviderId } from "../../shared/validate";
import { LIMITS } from "../../shared/limits";
import { useHeadroom, useIntents } from "../app-context";
import { NumberInput, typedNumber } from "./NumberInput";

function idProblem(id: string, known: Readonly<Record<string, unknown>>): string | undefined {
  if (id === "") return "Type a provider id first, such as anthropic.";
  const checked = checkProviderId(id, "A provider id");
  if (!checked.ok) return checked.message;
  return id in known ? `${id} already exists; change its limit on its card.` : undefined;
}

/** Only a limit creates a provider (SPEC §3), so adding one is setting its first limit. */
export function AddProviderForm() {
  const intents = useIntents();
  const known = useHeadroom((state) => state.providers);
  const [id, setId] = useState("");
  const [limit, setLimit] = useState("4");
  const [idError, setIdError] = useState<string>();
  const [limitError, setLimitError] = useState<string>();
  const [added, setAdded] = useState<string>();
  const busy = useRef(false);
  const idField = useRef<HTMLInputElement>(null);
  const idMessage = useId();
  const limitMessage = useId();

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (busy.current) return;
    const trimmed = id.trim();
    const problem = idProblem(trimmed, known);
    const checkedLimit = checkLimit(typedNumber(limit));
    setIdError(problem);
    setLimitError(checkedLimit.ok ? undefined : checkedLimit.message);
    setAdded(undefined);
    if (problem !== undefined || !checkedLimit.ok) {
      (problem !== undefined ? idField.current : null)?.focus();
      return;
    }
    busy.current = true;
    const result = await intents.addProvider(trimmed, checkedLimit.value);
    busy.current = false;
    if (result.ok) {
      setId("");
      setAdded(`Added ${trimmed} with a limit of ${checkedLimit.value}.`);
      // Ready for the next one: the new card is in the list below, announced by the status.
      idField.current?.focus();
    } else {
      setIdError(result.message);
    }
  }

  return (
    <form className="add-provider-tile" aria-label="Add a provider" onSubmit={(event) => void submit(event)}>
      <h3>Add a provider</h3>
      <div className="field">
        <label>
          <span className="field-label">Provider id</span>
          <input
            ref={idField}
            data-focus="new-provider"
            type="text"
            aria-label="Provider id"
            placeholder="anthropic"
            autoComplete="off"
            spellCheck={false}
            value={id}
            aria-invalid={idError ? true : undefined}
            aria-describedby={idError ? idMessage : undefined}
            onChange={(event) => {
              setId(event.target.value);
              setIdError(undefined);
            }}
          />
        </label>
        <p role="status" id={idMessage} className="field-error">
          {idError}
        </p>
      </div>
      <div className="field">
        <label>
          <span className="field-label">Limit</span>
          <NumberInput
            aria-label="New provider limit"
            className="narrow"
            range={LIMITS.limit}
            value={limit}
            aria-invalid={limitError ? true : undefined}
            aria-describedby={limitError ? limitMessage : undefined}
            onValue={(text) => {
              setLimit(text);
              setLimitError(undefined);
            }}
          />
        </label>
        <p role="status" id={limitMessage} className="field-error">
          {limitError}
        </p>
      </div>
      <button type="submit" className="primary">
        Add provider
      </button>
      <p role="status" className="muted add-result">
        {added}
      </p>
    </form>
  );
}
