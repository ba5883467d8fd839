// One plain provider setting in the details panel (shared/provider-settings.ts SETTINGS): a
// number (`%`, `$`), a duration in milliseconds, or a choice. Its label, unit, bounds, default
// and what an empty field means all come from the setting's entry, so a new setting needs no
// component of its own.
import { useId } from "react";
import type { ProviderConfigView } from "../../shared/types";
import { SETTINGS, type SettingName } from "../../shared/provider-settings";
import { canBeOff, choicesOf, rangeOf, shownValue, type Setting } from "../../shared/setting";
import { checkProviderConfigBody } from "../../shared/validate";
import { useIntents } from "../app-context";
import { useAction } from "../hooks/use-action";
import { formatDuration } from "../../shared/duration";
import { parseSpokenDuration } from "../duration-words";
import { CommitField, refused, typedNumber } from "./CommitField";

interface SettingFieldProps {
  providerId: string;
  name: SettingName;
  /** The provider's config as last read: undefined while it loads. */
  config: ProviderConfigView | undefined;
  onSaved: (view: ProviderConfigView) => void;
}

/** The words after the label in the field's accessible name: `Hold new agents at percent for …`. */
const UNIT_NAME = { "%": " percent", $: " dollars" } as const;

export function SettingField(props: SettingFieldProps) {
  const item: Setting = SETTINGS[props.name];
  return item.control === "choice" ? <ChoiceField {...props} item={item} /> : <NumberField {...props} item={item} />;
}

function NumberField({ providerId, name, config, onSaved, item }: SettingFieldProps & { item: Setting }) {
  const intents = useIntents();
  const stored = config?.[name] as number | undefined;
  const value = stored ?? (item.implied as number | undefined);
  const off = value === undefined || value === item.off;
  // Durations are read and typed in words (`2 min`, `90 s`), never as a count of milliseconds (SPEC §4).
  const duration = item.control === "duration";
  const unit = duration ? undefined : item.words.unit;
  const unitName = unit ? UNIT_NAME[unit] : "";
  const shown = off && canBeOff(item) ? "" : value === undefined ? "" : duration ? formatDuration(value) : String(value);
  return (
    <CommitField
      label={`${item.words.label}${unitName} for ${providerId}`}
      visibleLabel={`${item.words.label}${unit ? ` (${unit})` : ""}${duration ? "" : ` · ${shownValue(item, value)}`}`}
      value={shown}
      {...(duration ? {} : { range: rangeOf(item) })}
      inputProps={{ className: "narrow", placeholder: canBeOff(item) ? "off" : "", title: item.words.help }}
      onCommit={async (draft) => {
        const text = draft.trim().replace(/^\$/, "");
        const spoken = duration ? parseSpokenDuration(text) : typedNumber(text);
        if (duration && text !== "" && text !== "off" && spoken === undefined) return refused("Type a duration such as 90 s or 5 min.");
        // Empty is off (or back to the default); not a number is passed on as typed, so the message names what is wrong.
        const typed = text === "" || (duration && text === "off") ? (item.off ?? null) : (spoken ?? draft);
        const checked = checkProviderConfigBody({ [name]: typed });
        if (!checked.ok) return refused(checked.message);
        const result = await intents.configure(providerId, checked.value);
        if (result.ok) onSaved(result.value);
        return result;
      }}
    />
  );
}

function ChoiceField({ providerId, name, config, onSaved, item }: SettingFieldProps & { item: Setting }) {
  const intents = useIntents();
  const { error, busy, run } = useAction();
  const errorId = useId();
  const value = (config?.[name] ?? item.implied) as string | undefined;
  return (
    <div className="field">
      <label>
        <span className="field-label">{item.words.label}</span>
        <select
          aria-label={`${item.words.label} for ${providerId}`}
          title={item.words.help}
          value={value ?? ""}
          disabled={config === undefined}
          aria-busy={busy || undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={async (event) => {
            const result = await run(intents.configure(providerId, { [name]: event.target.value }));
            if (result.ok) onSaved(result.value);
          }}
        >
          {choicesOf(item).map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      </label>
      {error && (
        <p role="status" id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
