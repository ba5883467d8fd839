// Shorter wording by design (SPEC §4 "Text is not cut"): where a card or a list has no room
// for a long folder, its middle folders shrink to their first letter, as fish's prompt does
// (`~/src/billing-service/api` → `~/s/b/api`), so the last folder — the one a person knows
// the agent by — stays whole and nothing ends in an ellipsis. The full text is in the details.

/** `~/src/billing-service/api` → `~/s/b/api` when longer than `max` characters; the last folder stays whole. */
export function shortFolder(path: string, max: number): string {
  if (path.length <= max) return path;
  const parts = path.split("/");
  const last = parts.length - 1;
  return parts.map((part, i) => (i === last || part === "" || part === "~" ? part : initial(part))).join("/");
}

/**
 * An agent's label as the window shows it (`claude · ~/src/api`, or a bare name) within `max`
 * characters: the folder after the last ` · ` shrinks first; a name without a folder is left
 * as it is (the CSS wraps it rather than cut it).
 */
export function shortAgentLabel(label: string, max: number): string {
  if (label.length <= max) return label;
  const cut = label.lastIndexOf(" · ");
  if (cut < 0) return looksLikePath(label) ? shortFolder(label, max) : label;
  const head = label.slice(0, cut + 3);
  const folder = label.slice(cut + 3);
  return looksLikePath(folder) ? head + shortFolder(folder, Math.max(0, max - head.length)) : label;
}

/** `.config` keeps its dot: `.c`, not `.`. */
const initial = (part: string) => (part.startsWith(".") ? part.slice(0, 2) : [...part][0] ?? part);

const looksLikePath = (text: string) => text.includes("/") || text.includes("\\");
