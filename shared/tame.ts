// SPEC §6 "Names from the wire are tamed": a name an agent or a provider sent us (a model, an
// agent header, a process's command or folder) reaches a view, a log or a terminal only as
// plain text of at most 128 characters, so no escape sequence can repaint the user's terminal.

const TAMED_MAX_LENGTH = 128;

// An ANSI escape sequence (CSI, OSC up to its terminator, or a lone ESC + one character) first,
// so it goes as one piece; then any C0, DEL or C1 character left.
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[\s\S]?|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/** Control characters and escape sequences become "?", and the text is cut to 128 characters. */
export function tame(text: string): string {
  const plain = text.replace(ESCAPES, "?").replace(CONTROLS, "?");
  return plain.length > TAMED_MAX_LENGTH ? `${plain.slice(0, TAMED_MAX_LENGTH - 1)}…` : plain;
}
