// One host's calls to the pool script for one shared provider (SPEC §7 "Redis down or
// restarted"): each operation names the epoch (the state in Redis) this host joined; one that
// Redis refuses because it lost that state is sent again once this host has re-registered what
// it holds. Every reply goes to the pool's handler before the call resolves.
import { randomUUID } from "node:crypto";
import type { Clock } from "../engine/clock";
import {
  type ArgsOf,
  type LeaseArg,
  type Operation,
  type Results,
  type ScriptReply,
  type SettingsFields,
  scriptArgs,
} from "./pool-protocol";
import type { RedisLink } from "./redis-link";

export interface EpochLinkDeps {
  redis: RedisLink;
  /** `<keyPrefix>:<providerId>` */
  keys: string;
  host: string;
  clock: Clock;
  /** Every reply, before its call resolves; `read`: the operation only read the state. */
  handle(reply: ScriptReply, read: boolean): void;
  /** What this host holds and the newest settings it saw, to re-register in a Redis that lost them. */
  holdings(): { leases: LeaseArg[]; settings: SettingsFields | undefined };
  /** Once re-registered: what else this host had told the lost state (its gate, its waiters), sent again. */
  replay(send: <O extends Operation>(op: O, args: ArgsOf<O>) => Promise<void>): Promise<void>;
  /** Diagnostics: leases re-registered after the 10 s window. */
  lateLeases(count: number): void;
}

/** Operations that change nothing of their own: a status reader is not told of its own reading. */
const READS: ReadonlySet<Operation> = new Set(["status", "leases"]);

export class EpochLink {
  private joined: string = randomUUID();
  private rejoining: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;

  constructor(private readonly deps: EpochLinkDeps) {}

  /** The state in Redis this host joined (its epoch key); until seeded, the one it would create. */
  get epoch(): string {
    return this.joined;
  }

  /** Joins: the epoch Redis holds (or this host's, if it created the state) from now on. */
  joinedEpoch(epoch: string): void {
    this.joined = epoch;
  }

  /** Runs one operation at this instant; undefined once closed. Its reply is handled before it resolves. */
  call<O extends Operation>(op: O, args: ArgsOf<O>, settings?: SettingsFields): Promise<Results[O] | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    const sent = this.send(op, this.deps.clock.now(), args, settings);
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent)).catch(() => {});
    return sent;
  }

  /** Calls after this answer undefined; those in flight still finish. */
  close(): void {
    this.closed = true;
  }

  /** Resolves once every operation sent has been answered and its answers handled. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private run<O extends Operation>(op: O, now: number, args: ArgsOf<O>, settings?: SettingsFields): Promise<ScriptReply> {
    const caller = { prefix: this.deps.keys, host: this.deps.host, now, epoch: this.joined };
    return this.deps.redis.run(scriptArgs(op, caller, args, settings));
  }

  /** An operation Redis refused for a lost epoch changed nothing: it is sent again once re-registered. */
  private async send<O extends Operation>(op: O, now: number, args: ArgsOf<O>, settings?: SettingsFields): Promise<Results[O]> {
    let reply = await this.run(op, now, args, settings);
    if (reply.staleEpoch) {
      await this.rejoin();
      reply = await this.run(op, now, args, settings);
    }
    this.deps.handle(reply, READS.has(op));
    return reply.result as Results[O];
  }

  private rejoin(): Promise<void> {
    this.rejoining ??= this.reregister().finally(() => (this.rejoining = undefined));
    return this.rejoining;
  }

  /**
   * Redis lost the state this host joined: it re-registers the leases it holds, offers the
   * newest settings it saw, and sends again what else it had told (FIFO across hosts starts afresh).
   */
  private async reregister(): Promise<void> {
    const { leases, settings } = this.deps.holdings();
    const now = this.deps.clock.now();
    const reply = await this.run("rejoin", now, { newEpoch: randomUUID(), leases: JSON.stringify(leases) }, settings);
    const { epoch, late } = reply.result as Results["rejoin"];
    this.joined = epoch;
    if (late > 0) this.deps.lateLeases(late);
    this.deps.handle(reply, false);
    await this.deps.replay(async (op, args) => this.deps.handle(await this.run(op, now, args), false));
  }
}
