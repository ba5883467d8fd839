// The pool script's protocol, host side (the script's side is lua/prelude.ts, which names
// ARGV from the same table): what each operation takes, by name, and what it answers. Every
// reply is one JSON value with named fields, so nothing here or above reads by position.
import type { PoolConfig } from "../engine/pool-types";

/** What every operation starts with: ARGV[1..5]. */
export const COMMON_ARGS = ["op", "prefix", "host", "now", "epoch"] as const;

/**
 * Each operation's own arguments, in order after the common ones. A list travels as one JSON
 * argument; settings (seed, rejoin) follow the named arguments as field/value pairs of the
 * `cfg` hash they are written to.
 */
export const OPERATION_ARGS = {
  seed: [],
  rejoin: ["newEpoch", "leases"],
  acquire: ["waiterId", "deadline", "zero", "ttl", "agentId", "resume"],
  leave: ["waiterId"],
  release: ["leaseId", "outcome", "retryAfter", "requestId"],
  undelivered: ["leaseId", "requestId"],
  setLimit: ["limit"],
  setCooldown: ["cooldownMs"],
  resume: [],
  drive: ["waiterIds"],
  depart: [],
  status: [],
  heartbeat: ["leaseId"],
  adopt: ["leases"],
  leases: [],
  rateLimitedOn: ["leaseId", "retryAfter"],
  pauseUntil: ["untilAt", "reason"],
  windowNote: ["usedUp", "label", "resetsAt", "sightings"],
  gate: ["gated"],
  gateAnswer: ["askId", "sessions", "pollMs"],
} as const satisfies Record<string, readonly string[]>;

export type Operation = keyof typeof OPERATION_ARGS;
export type ArgsOf<O extends Operation> = { [K in (typeof OPERATION_ARGS)[O][number]]: string | number };

/** Who asks and when: the common arguments after the operation's name. */
export interface Caller {
  prefix: string;
  host: string;
  now: number;
  epoch: string;
}

/** The `cfg` hash's fields as the script writes them (autoReducedFrom absent: not reduced). */
export type SettingsFields = { limit: number; cooldownMs: number; autoReduced: 0 | 1; autoReducedFrom?: number; version?: number };

export function settingsFields(config: Pick<PoolConfig, "limit" | "cooldownMs" | "autoReduced" | "autoReducedFrom">): SettingsFields {
  const { limit, cooldownMs, autoReduced, autoReducedFrom } = config;
  return { limit, cooldownMs, autoReduced: autoReduced ? 1 : 0, ...(autoReduced && autoReducedFrom !== undefined ? { autoReducedFrom } : {}) };
}

/** ARGV for one operation, in the order OPERATION_ARGS names. */
export function scriptArgs<O extends Operation>(op: O, caller: Caller, args: ArgsOf<O>, settings?: SettingsFields): (string | number)[] {
  const names: readonly string[] = OPERATION_ARGS[op];
  const values = args as Record<string, string | number>;
  const out: (string | number)[] = [op, caller.prefix, caller.host, caller.now, caller.epoch];
  for (const name of names) out.push(values[name] ?? "");
  for (const [field, value] of Object.entries(settings ?? {})) out.push(field, value);
  return out;
}

/** A lease as `adopt` and `rejoin` take it (-1, '': none). */
export interface LeaseArg {
  leaseId: string;
  admittedAt: number;
  expiresAt: number;
  ttl: number;
  agentId: string;
}

/** What a 429 did: whether the pause was extended and to when, whether the limit was lowered and to what. */
export interface Judged429 {
  extended: boolean;
  pausedUntil: number;
  reduced: boolean;
  limit: number;
  /** A reduction within a minute of a restore by hand: how long after (SPEC §4). */
  loweredAgainMs?: number;
}

export interface StatusResult {
  limit: number;
  active: number;
  queued: number;
  /** Of them, resuming waiters (SPEC §8 `run --resume`). */
  resuming: number;
  /** Only while paused. */
  pausedUntil?: number;
  /** Only for an early pause: a 429's pause has none. */
  pauseReason?: string;
  cooldownMs: number;
  autoReduced: boolean;
  autoReducedFrom?: number;
  /** While reduced, when the reduction came within a minute of a restore: how long after. */
  loweredAgainMs?: number;
  recycling: number;
  hosts: number;
  version: number;
  /** While a used-up window pauses the provider (SPEC §8): its end and the window. */
  windowUntil?: number;
  windowLabel?: string;
  /** The first admission after the window's reset is out. */
  probing: boolean;
  /** After Redis restarted empty: new admissions wait until then for the hosts to re-register. */
  rejoinHoldUntil?: number;
  /** Each window's newest sighting any host read, as JSON (cjson: `{}` when none). */
  sightings: string[] | Record<string, never>;
}

interface HeldRow {
  leaseId: string;
  admittedAt: number;
  expiresAt?: number;
  host: string;
  agentId?: string;
}

interface WaiterRow {
  waiterId: string;
  enqueuedAt: number;
  host: string;
  agentId?: string;
  /** SPEC §8: a `headroom run --resume` waiting out a window, queued before every other waiter. */
  resuming?: true;
}

/** Each operation's own answer (the `result` of the reply). */
export interface Results {
  seed: { seeded: boolean; epoch: string };
  rejoin: { rejoined: boolean; epoch: string; late: number };
  acquire: { done: true };
  leave: { left: boolean };
  release: { released: boolean } & Partial<Judged429>;
  undelivered: { released: boolean };
  setLimit: { done: true };
  setCooldown: { done: true };
  resume: { wasPaused: boolean };
  drive: { done: true };
  depart: { done: true };
  status: StatusResult;
  heartbeat: { held: boolean; expiresAt?: number };
  /** Per lease, in order: its expiry (-1 none) once this host holds it, or EXPIRED / HELD_ELSEWHERE. */
  adopt: { expiries: number[] };
  leases: { held: HeldRow[]; waiting: WaiterRow[] };
  rateLimitedOn: { held: boolean } & Partial<Judged429>;
  pauseUntil: { paused: boolean; pausedUntil?: number };
  windowNote: { done: true };
  gate: { done: true };
  gateAnswer: { answered: boolean; admitting?: boolean };
}

/**
 * The whole reply: the operation's answer, this host's answers (inbox.ts), the instants Redis's
 * state changes by itself (cooldown and pause ends), and when the longest-silent other host
 * would expire (-1: no other host; 0: not looked at). `staleEpoch`: refused, nothing changed.
 */
export interface ScriptReply<O extends Operation = Operation> {
  result: Results[O];
  inbox: string[];
  wakeAt: number[];
  hostExpiresAt: number;
  staleEpoch?: true;
  /** What the window's pause did in this operation, for this host's history (lua/window-state.ts). */
  windowEvents?: WindowEvent[];
}

interface WindowEvent {
  kind: "window_exhausted" | "window_reset";
  label: string;
  at: number;
  /** The pause's end (exhausted only). */
  untilAt?: number;
}

/**
 * Lua's cjson writes an empty table as `{}`: every list is read through this. Numbers are
 * truncated as a Redis integer reply would, so the host sees what it always did.
 */
export function list<T>(value: T[] | Record<string, never> | undefined): T[] {
  return Array.isArray(value) ? value : [];
}

export function parseJson<T>(raw: string): T {
  return JSON.parse(raw, (_key, value: unknown) => (typeof value === "number" ? Math.trunc(value) : value)) as T;
}

export function parseReply<O extends Operation>(raw: string): ScriptReply<O> {
  const reply = parseJson<ScriptReply<O>>(raw);
  reply.inbox = list(reply.inbox);
  reply.wakeAt = list(reply.wakeAt);
  if (reply.windowEvents !== undefined) reply.windowEvents = list(reply.windowEvents);
  return reply;
}
