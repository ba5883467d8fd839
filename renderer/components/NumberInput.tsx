// A number field that changes only by typing or its own arrow keys (SPEC §4, safe editing).
// A native <input type="number"> also steps on the mouse wheel while focused, so scrolling
// the page over it could silently change a provider's limit: this is a text input with the
// spinbutton role, stepping on ArrowUp/ArrowDown only.
import type { InputHTMLAttributes, KeyboardEvent } from "react";

export interface NumberRange {
  min: number;
  max: number;
  step?: number;
}

type NumberInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "value" | "onChange" | "min" | "max" | "step"> & {
  range: NumberRange;
  value: string;
  onValue: (text: string) => void;
};

export function NumberInput({ range, value, onValue, onKeyDown, ...rest }: NumberInputProps) {
  const current = typedNumber(value);
  function step(event: KeyboardEvent<HTMLInputElement>): void {
    const direction = event.key === "ArrowUp" ? 1 : event.key === "ArrowDown" ? -1 : 0;
    if (direction === 0) return;
    event.preventDefault();
    const from = current ?? range.min;
    onValue(String(Math.min(range.max, Math.max(range.min, from + direction * (range.step ?? 1)))));
  }
  return (
    <input
      {...rest}
      type="text"
      role="spinbutton"
      inputMode="numeric"
      autoComplete="off"
      aria-valuemin={range.min}
      aria-valuemax={range.max}
      aria-valuenow={current}
      value={value}
      onChange={(event) => onValue(event.target.value)}
      onKeyDown={(event) => {
        step(event);
        onKeyDown?.(event);
      }}
    />
  );
}

/** A number typed into a field, or undefined when it is empty or not a number. */
export function typedNumber(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const value = Number(text);
  return Number.isNaN(value) ? undefined : value;
}
