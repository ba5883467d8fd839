// SPEC §4 "First run" / §10: the presets that are not providers yet, one click each, and the
// custom provider's form one link away.
import { PRESETS } from "../../shared/presets";
import { useHeadroom, useIntents } from "../app-context";
import { useAction } from "../hooks/use-action";

export function PresetButtons() {
  const intents = useIntents();
  const known = useHeadroom((state) => state.providers);
  const { error, busy, run } = useAction();
  // The window's own copy of the presets (shared/): the buttons are there at once, so nothing
  // below them moves when an answer arrives.
  const missing = PRESETS.filter((preset) => !(preset.id in known));
  if (missing.length === 0) return null;
  return (
    <div className="presets">
      <p>Add the providers your agents use; each starts with a limit you can change on its card.</p>
      <div className="preset-buttons">
        {missing.map((preset) => (
          <button key={preset.id} type="button" disabled={busy} title={`${preset.upstream} · limit ${preset.limit} · ${preset.agents.join(", ")}`} onClick={() => void run(intents.addPreset(preset))}>
            Add {preset.name}
          </button>
        ))}
        <a
          href="#add-provider"
          className="link"
          onClick={(event) => {
            event.preventDefault();
            document.querySelector<HTMLInputElement>('[data-focus="new-provider"]')?.focus();
          }}
        >
          Add a custom provider
        </a>
      </div>
      {/* Only while there is something to say: an empty alert would still count as one. */}
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
