// The release cooldown: a slider for the usual range that saves once when let go (a save per
// pixel would flood the host and the history), and a field for any allowed value.
import { useEffect, useRef, useState } from "react";
import { LIMITS } from "../../shared/limits";
import { checkCooldownMs } from "../../shared/validate";
import { useIntents } from "../app-context";
import { formatDuration } from "../../shared/duration";
import { useAction } from "../hooks/use-action";
import { CommitField, refused, typedNumber } from "./CommitField";
import { Explained } from "./Explained";

const { sliderMax, sliderStep, min, max } = LIMITS.cooldownMs;
/** Arrow keys save once the user stops pressing them for this long (auto-repeat included). */
const KEY_IDLE_MS = 600;
const STEP_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End"]);

export function CooldownControl({ providerId, cooldownMs }: { providerId: string; cooldownMs: number }) {
  const intents = useIntents();
  const { error, run } = useAction();
  const [dragged, setDragged] = useState<number>();
  const slider = useRef<HTMLInputElement>(null);
  // The value on its way to the host: release, keyup and the native change event all report
  // the same gesture, and it must be sent once.
  const sending = useRef<number>(undefined);
  const keyTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const resting = Math.min(cooldownMs, sliderMax);

  async function commit(): Promise<void> {
    clearTimeout(keyTimer.current);
    keyTimer.current = undefined;
    const value = Number(slider.current?.value ?? resting);
    if (value === sending.current) return;
    if (value === resting) {
      setDragged(undefined);
      return;
    }
    sending.current = value;
    await run(intents.setCooldown(providerId, value));
    sending.current = undefined;
    setDragged(undefined);
  }
  const commitWhenKeysStop = () => {
    clearTimeout(keyTimer.current);
    keyTimer.current = setTimeout(() => void commit(), KEY_IDLE_MS);
  };
  // React's onChange is the input event; the native change event (end of a drag, a step by
  // assistive technology) marks a finished gesture, except while keys are stepping: those
  // save once they stop. Re-attached each render so it sees the current saved value.
  useEffect(() => {
    const element = slider.current;
    if (!element) return;
    const onChange = () => (keyTimer.current === undefined ? void commit() : commitWhenKeysStop());
    element.addEventListener("change", onChange);
    return () => element.removeEventListener("change", onChange);
  });
  useEffect(() => () => clearTimeout(keyTimer.current), []);

  const shown = dragged ?? cooldownMs;
  return (
    <div className="cooldown">
      <div className="slider-label">
        <Explained term="Cooldown" explanation="After an agent releases a slot, the slot rests this long before the next agent gets it, so bursts do not hit the provider back to back." />
        <input
          ref={slider}
          type="range"
          min={min}
          max={sliderMax}
          step={sliderStep}
          aria-label={`Cooldown for ${providerId}`}
          aria-valuetext={formatDuration(shown)}
          value={dragged ?? resting}
          onChange={(event) => setDragged(Number(event.target.value))}
          onPointerUp={() => void commit()}
          onKeyDown={(event) => {
            if (STEP_KEYS.has(event.key)) commitWhenKeysStop();
          }}
          onKeyUp={(event) => {
            if (STEP_KEYS.has(event.key)) commitWhenKeysStop();
          }}
          onBlur={() => {
            if (keyTimer.current !== undefined) void commit();
          }}
        />
      </div>
      <CommitField
        label={`Cooldown ms for ${providerId}`}
        visibleLabel="ms"
        value={String(shown)}
        range={{ min, max }}
        inputProps={{ className: "narrow" }}
        onCommit={(draft) => {
          const checked = checkCooldownMs(typedNumber(draft));
          return checked.ok ? intents.setCooldown(providerId, checked.value) : refused(checked.message);
        }}
      />
      <p role="status" className="field-error">
        {error}
      </p>
    </div>
  );
}
