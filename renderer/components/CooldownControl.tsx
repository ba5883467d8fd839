// The release cooldown: a slider for the usual range that saves once when let go (a save per
// pixel would flood the host and the history), and a field for any allowed value.
import { useEffect, useRef, useState } from "react";
import { LIMITS } from "../../shared/limits";
import { checkCooldownMs } from "../../shared/validate";
import { useIntents } from "../app-context";
import { useAction } from "../hooks/use-action";
import { CommitField, refused, typedNumber } from "./CommitField";

const { sliderMax, sliderStep, min, max } = LIMITS.cooldownMs;

export function CooldownControl({ providerId, cooldownMs }: { providerId: string; cooldownMs: number }) {
  const intents = useIntents();
  const { error, run } = useAction();
  const [dragged, setDragged] = useState<number>();
  const slider = useRef<HTMLInputElement>(null);
  // The value on its way to the host: release, keyup and the native change event all report
  // the same gesture, and it must be sent once.
  const sending = useRef<number>(undefined);
  const resting = Math.min(cooldownMs, sliderMax);

  async function commit(): Promise<void> {
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
  // React's onChange is the input event; the native change event (end of a drag, a step by
  // keyboard or assistive technology) is what marks a finished gesture. Re-attached each
  // render so it sees the current saved value.
  useEffect(() => {
    const element = slider.current;
    if (!element) return;
    const onChange = () => void commit();
    element.addEventListener("change", onChange);
    return () => element.removeEventListener("change", onChange);
  });

  const shown = dragged ?? cooldownMs;
  return (
    <div className="cooldown">
      <label className="slider-label">
        <span className="field-label">Cooldown</span>
        <input
          ref={slider}
          type="range"
          min={min}
          max={sliderMax}
          step={sliderStep}
          aria-label={`Cooldown for ${providerId}`}
          aria-valuetext={`${shown} ms`}
          value={dragged ?? resting}
          onChange={(event) => setDragged(Number(event.target.value))}
          onPointerUp={() => void commit()}
          onKeyUp={() => void commit()}
        />
      </label>
      <CommitField
        label={`Cooldown ms for ${providerId}`}
        visibleLabel="ms"
        value={String(shown)}
        inputProps={{ type: "number", min, max, step: 1, className: "narrow" }}
        onCommit={(draft) => {
          const checked = checkCooldownMs(typedNumber(draft));
          return checked.ok ? intents.setCooldown(providerId, checked.value) : refused(checked.message);
        }}
      />
      {error && (
        <p role="status" className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
