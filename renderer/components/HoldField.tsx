// SPEC §8 "Hold new agents near the end": the percent of a plan window at which new leases
// wait while agents mid-task keep going. Empty is off, the default.
import { LIMITS } from "../../shared/limits";
import type { ProviderConfigView } from "../../shared/types";
import { checkProviderConfigBody } from "../../shared/validate";
import { useIntents } from "../app-context";
import { CommitField, refused, typedNumber } from "./CommitField";

export function HoldField({ providerId, percent, onSaved }: { providerId: string; percent: number | undefined; onSaved: (view: ProviderConfigView) => void }) {
  const intents = useIntents();
  return (
    <CommitField
      label={`Hold new agents at percent for ${providerId}`}
      visibleLabel={`Hold new agents at (% of a window) · ${percent === undefined ? "off" : `${percent} %`}`}
      value={percent === undefined ? "" : String(percent)}
      range={LIMITS.holdNewAtPercent}
      inputProps={{ className: "narrow", placeholder: "off" }}
      onCommit={async (draft) => {
        // Not a number: passed on as typed, so the message names what is wrong with it.
        const typed = draft.trim() === "" ? null : (typedNumber(draft) ?? draft);
        const checked = checkProviderConfigBody({ holdNewAtPercent: typed });
        if (!checked.ok) return refused(checked.message);
        const result = await intents.configure(providerId, checked.value);
        if (result.ok) onSaved(result.value);
        return result;
      }}
    />
  );
}
