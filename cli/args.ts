// Small argv helpers over node:util parseArgs: every mistake becomes a UsageError (exit 64)
// whose message names the argument and what is allowed.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { validOr } from "../shared/check";
import { checkProviderId, type Checked } from "../shared/validate";
import { UsageError } from "./exit-codes";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** `--json` and `--help` are understood by every command. */
const COMMON = {
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies Options;

export function parseCommandArgs<O extends Options>(command: string, argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options: { ...COMMON, ...options }, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs' own messages already name the option ("Unknown option '--x'").
    throw new UsageError((error as Error).message, command);
  }
}

export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  const own = end === -1 ? argv : argv.slice(0, end);
  return own.includes("--help") || own.includes("-h");
}

/** The positionals a command expects, by name; missing or extra ones are usage errors. */
export function takePositionals(command: string, positionals: string[], names: string[], min = names.length): string[] {
  if (positionals.length < min) {
    throw new UsageError(`missing ${names.slice(positionals.length, min).map((n) => `<${n}>`).join(" ")}`, command);
  }
  if (positionals.length > names.length) {
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals[names.length])}`, command);
  }
  return positionals;
}

export function valid<T>(checked: Checked<T>, command: string): T {
  return validOr(checked, (message) => new UsageError(message, command));
}

export function providerIdArg(value: string, command: string): string {
  return valid(checkProviderId(value, "provider id"), command);
}

/** A number when the text is one, else the text itself, so validators show what was typed. */
export function numberOrText(text: string): number | string {
  return /^\s*-?\d+(?:\.\d+)?\s*$/.test(text) ? Number(text) : text;
}
