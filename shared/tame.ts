// SPEC §6 "Names from the wire are tamed": a name an agent or a provider sent us (a model, an
// agent header, a process's command or folder) reaches a view, a log or a terminal only as
// plain text of at most 128 characters, so no escape sequence can repaint the user's terminal
// and no invisible character can make one name read as another.

/** C0, DEL and C1 (SPEC §3, §6), as a character-class body. */
export const CONTROL_RANGES = "\\u0000-\\u001F\\u007F-\\u009F";
/**
 * Zero-width spaces, joiners and marks (U+200B–U+200F), bidi embeddings and overrides
 * (U+202A–U+202E) and bidi isolates (U+2066–U+2069): printed raw they hide text or reorder it
 * (`evil\u202Egnp.js` reads as `eviljs.png`), so they are treated as control characters
 * wherever a name is tamed or checked (issue 32; SPEC §6 names only C0/C1).
 */
export const INVISIBLE_RANGES = "\\u200B-\\u200F\\u202A-\\u202E\\u2066-\\u2069";

const TAMED_MAX_LENGTH = 128;

// An ANSI escape sequence (CSI, OSC up to its terminator, or a lone ESC + one character) first,
// so it goes as one piece; then any C0, DEL, C1 or invisible character left.
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[\s\S]?|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROLS = new RegExp(`[${CONTROL_RANGES}${INVISIBLE_RANGES}]`, "g");

/** Control characters, invisible characters and escape sequences become "?", and the text is cut to 128 characters. */
export function tame(text: string): string {
  const plain = text.replace(ESCAPES, "?").replace(CONTROLS, "?");
  return plain.length > TAMED_MAX_LENGTH ? `${plain.slice(0, TAMED_MAX_LENGTH - 1)}…` : plain;
}
