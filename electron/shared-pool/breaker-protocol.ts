// The breaker script's protocol, host side (the script names ARGV from the same table,
// breaker-script.ts): what each operation takes, by name, and what it answers, as one JSON
// value with named fields.
import type { BreakerSettings } from "../../shared/types";
import { list, parseJson } from "./pool-protocol";

/** Each operation's own arguments, in order, after ARGV[1..3] (the operation, the key prefix, the host's time); settings (seed, setSettings) follow as field/value pairs. */
export const BREAKER_ARGS = {
  seed: [],
  admit: ["routeId", "runId"],
  entry: ["routeId"],
  refresh: ["routeId"],
  outcome: ["routeId", "runId", "outcome", "reason"],
  release: ["routeId", "runId"],
  reset: ["routeId"],
  snapshot: [],
  settings: [],
  setSettings: [],
} as const satisfies Record<string, readonly string[]>;

export type BreakerOperation = keyof typeof BREAKER_ARGS;
type BreakerArgsOf<O extends BreakerOperation> = { [K in (typeof BREAKER_ARGS)[O][number]]: string };

export function breakerArgs<O extends BreakerOperation>(
  op: O,
  caller: { prefix: string; now: number },
  args: BreakerArgsOf<O>,
  settings: Partial<BreakerSettings> = {},
): (string | number)[] {
  const names: readonly string[] = BREAKER_ARGS[op];
  const values = args as Record<string, string>;
  const out: (string | number)[] = [op, caller.prefix, caller.now];
  for (const name of names) out.push(values[name] ?? "");
  for (const [field, value] of Object.entries(settings)) if (value !== undefined) out.push(field, value);
  return out;
}

/** One route as Redis holds it; `id` is the JSON of its key. */
export interface BreakerView {
  id: string;
  state: "closed" | "open" | "half-open";
  openUntil: number;
  reason: string;
  failures: number;
  /** Only while a probe is out. */
  probeOwner?: string;
}

export type BreakerEvent =
  | { kind: "half-open"; id: string }
  | { kind: "opened"; id: string; cooldownMs: number; failures: number; reason: string }
  | { kind: "closed"; id: string; why: string };

/** `admitted`: admit's answer; `seeded`: seed wrote this host's settings. */
export interface BreakerReply {
  admitted?: boolean;
  seeded?: boolean;
  routes: BreakerView[];
  events: BreakerEvent[];
  settings: BreakerSettings;
}

export function parseBreakerReply(raw: string): BreakerReply {
  const reply = parseJson<BreakerReply>(raw);
  reply.routes = list(reply.routes);
  reply.events = list(reply.events);
  return reply;
}
