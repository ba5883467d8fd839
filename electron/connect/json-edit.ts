// Minimal edits of a JSON (or JSONC) configuration through jsonc-parser: only the key changed
// moves, every other key, comment, order and indentation stays as the user left it.
import { applyEdits, modify, parse, printParseErrorCode, type FormattingOptions, type ParseError } from "jsonc-parser";
import { ConnectError } from "./connect-error";
import { eolOf, lineAt } from "./config-file";

export type JsonPath = (string | number)[];

/**
 * The file's value; an empty file is an empty object. Throws config_unparsable naming the line.
 * `strict` names an agent that reads the file as plain JSON (no comments, no trailing commas):
 * Claude Code 2.1 does not load a settings.json with a comment at all, so an edit there would
 * connect nothing.
 */
export function parseJson(file: string, text: string | undefined, strict?: string): Record<string, unknown> {
  if (text === undefined || text.trim() === "") return {};
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: strict === undefined, disallowComments: strict !== undefined });
  const first = errors[0];
  if (first) {
    const why = strict === undefined ? "" : ` ${strict} reads it as plain JSON (no comments, no trailing commas) and does not load it as it is.`;
    throw new ConnectError(
      "config_unparsable",
      `${file} does not parse as JSON at line ${lineAt(text, first.offset)} (${printParseErrorCode(first.error)});${why} Fix it or move it aside, then retry. Nothing was changed.`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConnectError("config_unparsable", `${file} holds JSON that is not an object; fix it or move it aside, then retry. Nothing was changed.`);
  }
  return value as Record<string, unknown>;
}

export function valueAt(root: unknown, path: JsonPath): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

/** The file's own indentation (first indented line), so new keys look like the old ones. */
function formatting(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  const eol = eolOf(text);
  if (indent?.startsWith("\t")) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent?.length ?? 2, eol };
}

/** `text` with the value at `path` set (undefined removes it); new files end with a newline. */
export function setJson(text: string | undefined, path: JsonPath, value: unknown): string {
  const source = text === undefined || text.trim() === "" ? "{}" : text;
  const edits = modify(source, path, value, { formattingOptions: formatting(source) });
  let out = applyEdits(source, edits);
  if (source === "{}" && !out.endsWith("\n")) out += "\n";
  return out;
}

/** Removes the key at `path`, then its parent objects that the removal left empty. */
export function removeJson(text: string, path: JsonPath, keepParents: number): string {
  let out = setJson(text, path, undefined);
  for (let depth = path.length - 1; depth > keepParents; depth--) {
    const parent = path.slice(0, depth);
    const value = valueAt(parse(out), parent);
    if (typeof value === "object" && value !== null && Object.keys(value).length === 0) out = setJson(out, parent, undefined);
    else break;
  }
  return out;
}
