// The "waiting for a slot" line on stderr: rewritten in place on a terminal, and on a pipe or
// log file a plain line only when something changed (or now and then), so logs stay readable.
const CLEAR_LINE = "\r\x1b[2K";
const PLAIN_REPEAT_MS = 30_000;

export interface ProgressLine {
  /** `key` is what counts as a change worth a new line when not on a terminal. */
  show(text: string, key: string): void;
  /** Clears the live line; prints `text` when anything was shown before. */
  finish(text?: string): void;
}

export function createProgressLine(stream: NodeJS.WriteStream, now: () => number = Date.now): ProgressLine {
  const live = stream.isTTY === true;
  let shown = false;
  let lastKey: string | undefined;
  let lastAt = 0;
  return {
    show(text, key) {
      if (live) stream.write(`${CLEAR_LINE}${text}`);
      else if (key !== lastKey || now() - lastAt >= PLAIN_REPEAT_MS) {
        stream.write(`${text}\n`);
        lastKey = key;
        lastAt = now();
      }
      shown = true;
    },
    finish(text) {
      if (live && shown) stream.write(CLEAR_LINE);
      if (shown && text !== undefined) stream.write(`${text}\n`);
      shown = false;
    },
  };
}
