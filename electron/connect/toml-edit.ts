// Codex's config.toml edited by line (SPEC §10): no TOML library writes a file back the way
// it was read, so the lines Headroom owns are replaced or added and every other line stays
// byte for byte; the result must parse (smol-toml) before anything is written.
import { parse } from "smol-toml";
import { ConnectError } from "./connect-error";
import { eolOf } from "./config-file";

export function parseToml(file: string, text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    const line = (error as { line?: number }).line;
    throw new ConnectError(
      "config_unparsable",
      `${file} does not parse as TOML${line ? ` at line ${line}` : ""}; fix it or move it aside, then retry. Nothing was changed.`,
    );
  }
}

const HEADER = /^\s*\[/;

function splitLines(text: string): { lines: string[]; eol: string; endsWithEol: boolean } {
  const eol = eolOf(text);
  const endsWithEol = text.endsWith("\n");
  const body = endsWithEol ? text.slice(0, text.length - eol.length) : text;
  return { lines: body === "" ? [] : body.split(eol), eol, endsWithEol };
}

function joinLines(lines: string[], eol: string): string {
  return lines.length === 0 ? "" : `${lines.join(eol)}${eol}`;
}

function isTableHeader(line: string, table: string): boolean {
  const name = table.split(".").map((part) => `(?:${part}|"${part}")`).join("\\s*\\.\\s*");
  return new RegExp(`^\\s*\\[\\s*${name}\\s*\\]\\s*(#.*)?$`).test(line);
}

/** [start, end) of a table's lines: its header up to the next header, trailing blank lines left out. */
function tableRange(lines: string[], table: string): [number, number] | undefined {
  const start = lines.findIndex((line) => isTableHeader(line, table));
  if (start < 0) return undefined;
  let end = start + 1;
  while (end < lines.length && !HEADER.test(lines[end]!)) end++;
  while (end > start + 1 && lines[end - 1]!.trim() === "") end--;
  return [start, end];
}

function topLevelKeyLine(lines: string[], key: string): number {
  const pattern = new RegExp(`^\\s*(?:${key}|"${key}")\\s*=`);
  for (let i = 0; i < lines.length; i++) {
    if (HEADER.test(lines[i]!)) return -1;
    if (pattern.test(lines[i]!)) return i;
  }
  return -1;
}

/** Sets a top-level `key = value` (before any table) and replaces or appends a whole table. */
export function setTomlKeyAndTable(text: string | undefined, key: string, value: string, table: string, body: string[]): string {
  const { lines, eol } = splitLines(text ?? "");
  const keyLine = `${key} = ${value}`;
  const at = topLevelKeyLine(lines, key);
  if (at >= 0) lines[at] = `${/^\s*/.exec(lines[at]!)![0]}${keyLine}`;
  else {
    // Before the first table, above the comments and blank lines that introduce it.
    let insert = lines.findIndex((line) => HEADER.test(line));
    if (insert < 0) insert = lines.length;
    while (insert > 0 && (lines[insert - 1]!.trim() === "" || lines[insert - 1]!.trim().startsWith("#"))) insert--;
    lines.splice(insert, 0, keyLine);
  }
  const block = [`[${table}]`, ...body];
  const range = tableRange(lines, table);
  if (range) lines.splice(range[0], range[1] - range[0], ...block);
  else {
    if (lines.length > 0 && lines[lines.length - 1]!.trim() !== "") lines.push("");
    lines.push(...block);
  }
  return joinLines(lines, eol);
}

/** Removes the top-level key when it holds `value`, and the table (with one blank line above it). */
export function removeTomlKeyAndTable(text: string, key: string, value: string, table: string): string {
  const { lines, eol, endsWithEol } = splitLines(text);
  const range = tableRange(lines, table);
  if (range) {
    let [start] = range;
    if (start > 0 && lines[start - 1]!.trim() === "") start--;
    lines.splice(start, range[1] - start);
  }
  const at = topLevelKeyLine(lines, key);
  if (at >= 0 && lines[at]!.replace(/#.*$/, "").split("=")[1]?.trim() === value) lines.splice(at, 1);
  const out = joinLines(lines, eol);
  return endsWithEol || out === "" ? out : out.slice(0, out.length - eol.length);
}
