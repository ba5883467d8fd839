// What every command receives: the host connection, opened only when needed, so `--help`
// and usage errors work without a host or token.
import type { Connection } from "./connection";

export interface CommandContext {
  connection(): Connection;
}

/** Resolves to the exit status; throws UsageError or ApiError for main to describe. */
export type Command = (argv: string[], context: CommandContext) => Promise<number>;

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
