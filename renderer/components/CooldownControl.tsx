// The release cooldown: a slider for the usual range that saves once when let go (a save per
// pixel would flood the host and the history), and a field for any allowed value. The slider's
// scale is finer where people tune it: the first 100 steps are 0–1000 ms in 10 ms, the last
// 80 are 1–5 s in 50 ms (SPEC §4), so a pixel is about a third of what it was below 1 s.
import { useEffect, useRef, useState } from "react";
import { LIMITS } from "../../shared/limits";
import { checkCooldownMs } from "../../shared/validate";
import { useIntents } from "../app-context";
import { formatDuration } from "../../shared/duration";
import { useAction } from "../hooks/use-action";
import { CommitField, refused, typedNumber } from "./CommitField";
import { Explained } from "./Explained";

const { sliderMax, sliderStep, min, max } = LIMITS.cooldownMs;
const FINE_UNTIL_MS = 1_000;
const FINE_STEPS = FINE_UNTIL_MS / sliderStep;
const COARSE_STEP_MS = 50;
const LAST_POSITION = FINE_STEPS + (sliderMax - FINE_UNTIL_MS) / COARSE_STEP_MS;

/** The slider's position for a cooldown; above its range it rests at its end. */
function positionOf(ms: number): number {
  if (ms <= FINE_UNTIL_MS) return Math.round(ms / sliderStep);
  return Math.min(LAST_POSITION, FINE_STEPS + Math.round((ms - FINE_UNTIL_MS) / COARSE_STEP_MS));
}

const cooldownAt = (position: number): number =>
  position <= FINE_STEPS ? position * sliderStep : FINE_UNTIL_MS + (position - FINE_STEPS) * COARSE_STEP_MS;
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
  const resting = positionOf(cooldownMs);

  async function commit(): Promise<void> {
    clearTimeout(keyTimer.current);
    keyTimer.current = undefined;
    const position = Number(slider.current?.value ?? resting);
    if (position === sending.current) return;
    if (position === resting) {
      setDragged(undefined);
      return;
    }
    sending.current = position;
    await run(intents.setCooldown(providerId, cooldownAt(position)));
    // A gesture begun while this save was on its way is newer: landing must not undo it.
    if (sending.current === position) sending.current = undefined;
    setDragged((current) => (current === position ? undefined : current));
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

  const shown = dragged === undefined ? cooldownMs : cooldownAt(dragged);
  return (
    <div className="cooldown">
      <div className="slider-label">
        <Explained term="Cooldown" explanation="After an agent releases a slot, the slot rests this long before the next agent gets it, so bursts do not hit the provider back to back. The slider moves 10 ms at a time up to 1 s, then 50 ms." />
        <input
          ref={slider}
          type="range"
          min={0}
          max={LAST_POSITION}
          step={1}
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
      {error && (
        <p role="status" className="field-error field-float">
          {error}
        </p>
      )}
    </div>
  );
}
