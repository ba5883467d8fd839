// A dotenv file (Gemini CLI's ~/.gemini/.env) edited by line: the variable's line is replaced
// or appended; every other line stays as it was.
import { eolOf } from "./config-file";

function lineOf(name: string): RegExp {
  return new RegExp(`^\\s*(?:export\\s+)?${name}\\s*=`);
}

/** The variable's value in the file (quotes removed), or undefined. */
export function envValue(text: string | undefined, name: string): string | undefined {
  const line = (text ?? "").split(/\r?\n/).find((candidate) => lineOf(name).test(candidate));
  if (line === undefined) return undefined;
  return line.slice(line.indexOf("=") + 1).trim().replace(/^(["'])(.*)\1$/, "$2");
}

export function setEnv(text: string | undefined, name: string, value: string): string {
  const source = text ?? "";
  const eol = eolOf(source);
  const lines = source === "" ? [] : source.split(eol);
  const at = lines.findIndex((line) => lineOf(name).test(line));
  if (at >= 0) {
    lines[at] = `${/^\s*(export\s+)?/.exec(lines[at]!)![0]}${name}=${value}`;
    return lines.join(eol);
  }
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return `${[...lines, `${name}=${value}`].join(eol)}${eol}`;
}

export function removeEnv(text: string, name: string): string {
  const eol = eolOf(text);
  return text
    .split(eol)
    .filter((line) => !lineOf(name).test(line))
    .join(eol);
}
