import { checkLimit } from "../../shared/validate";
import { LIMITS } from "../../shared/limits";
import { useIntents } from "../app-context";
import { CommitField, refused, typedNumber } from "./CommitField";

export function LimitEditor({ providerId, limit }: { providerId: string; limit: number }) {
  const intents = useIntents();
  return (
    <CommitField
      label={`Limit for ${providerId}`}
      visibleLabel="Limit"
      value={String(limit)}
      range={LIMITS.limit}
      focusKey="limit"
      inputProps={{ className: "narrow" }}
      onCommit={(draft) => {
        const checked = checkLimit(typedNumber(draft));
        return checked.ok ? intents.setLimit(providerId, checked.value) : refused(checked.message);
      }}
    />
  );
}
