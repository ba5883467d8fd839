import { useId, useState, type FormEvent } from "react";
import { checkLimit, checkProviderId } from "../../shared/validate";
import { LIMITS } from "../../shared/limits";
import { useHeadroom, useIntents } from "../app-context";
import { typedNumber } from "./CommitField";

/** Only a limit creates a provider (SPEC §3), so adding one is setting its first limit. */
export function AddProviderForm() {
  const intents = useIntents();
  const known = useHeadroom((state) => state.providers);
  const [id, setId] = useState("");
  const [limit, setLimit] = useState("4");
  const [idError, setIdError] = useState<string>();
  const [limitError, setLimitError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const idMessage = useId();
  const limitMessage = useId();

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const checkedId = checkProviderId(id.trim());
    const checkedLimit = checkLimit(typedNumber(limit));
    setIdError(checkedId.ok ? (id.trim() in known ? `${id.trim()} already exists; change its limit on its card.` : undefined) : checkedId.message);
    setLimitError(checkedLimit.ok ? undefined : checkedLimit.message);
    if (!checkedId.ok || !checkedLimit.ok || checkedId.value in known) return;
    setBusy(true);
    const result = await intents.addProvider(checkedId.value, checkedLimit.value);
    setBusy(false);
    if (result.ok) setId("");
    else setIdError(result.message);
  }

  return (
    <form className="add-provider" aria-label="Add a provider" onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label>
          <span className="field-label">Provider id</span>
          <input
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
        {idError && (
          <p role="status" id={idMessage} className="field-error">
            {idError}
          </p>
        )}
      </div>
      <div className="field">
        <label>
          <span className="field-label">Limit</span>
          <input
            type="number"
            aria-label="New provider limit"
            className="narrow"
            min={LIMITS.limit.min}
            max={LIMITS.limit.max}
            value={limit}
            aria-invalid={limitError ? true : undefined}
            aria-describedby={limitError ? limitMessage : undefined}
            onChange={(event) => {
              setLimit(event.target.value);
              setLimitError(undefined);
            }}
          />
        </label>
        {limitError && (
          <p role="status" id={limitMessage} className="field-error">
            {limitError}
          </p>
        )}
      </div>
      <button type="submit" className="primary" disabled={busy}>
        Add provider
      </button>
    </form>
  );
}
