// One host's link to the Redis that shared providers live in: a command connection that
// runs the pool script (EVAL on a socket's first use, EVALSHA after: ioredis's defineCommand)
// and a subscriber connection for wake-ups. Commands on one connection run in the order
// they were sent, which is what lets a host judge every operation at the time it was asked.
import { type Result, Redis } from "ioredis";
import { type BreakerReply, parseBreakerReply } from "./breaker-protocol";
import { BREAKER_SCRIPT } from "./breaker-script";
import { parseReply, type ScriptReply } from "./pool-protocol";
import { POOL_SCRIPT } from "./pool-script";

// The commands connectRedis defines (defineCommand), declared as ioredis's typings ask.
declare module "ioredis" {
  interface RedisCommander<Context> {
    headroomPool(...args: (string | number)[]): Result<string, Context>;
    headroomBreaker(...args: (string | number)[]): Result<string, Context>;
  }
}

export interface RedisLink {
  /** Runs one pool operation, its arguments as pool-protocol.ts's scriptArgs lays them out. */
  run(args: (string | number)[]): Promise<ScriptReply>;
  /** Runs one route breaker operation, its arguments as breaker-protocol.ts's breakerArgs lays them out. */
  breaker(args: (string | number)[]): Promise<BreakerReply>;
  /** Calls `onMessage` with each message published on `channel` (wake-ups, changes). */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  /** Whether the command connection is up now; while it is not, commands wait to be sent. */
  readonly connected: boolean;
  /** False while connected but a PING has gone unanswered for a whole PING interval (a stalled or stopped Redis). */
  readonly answering: boolean;
  /** Why the last connection attempt failed, until one succeeds (no URL in it: ioredis names host and port only). */
  readonly lastError: string | undefined;
  /** Calls `listener` whenever the command connection goes down or comes back. */
  onConnectionChange(listener: (connected: boolean) => void): () => void;
  /** Adds `by` to the float at `key` (INCRBYFLOAT), which expires `ttlS` after its last add; the sum. */
  addFloat(key: string, by: number, ttlS: number): Promise<number>;
  /** The float at `key`, 0 when there is none. */
  readFloat(key: string): Promise<number>;
  /** Sets `key` to `value`, kept until changed. */
  writeText(key: string, value: string): Promise<void>;
  /** The text at `key`, undefined when there is none. */
  readText(key: string): Promise<string | undefined>;
  /** Redis's clock (`TIME`) in epoch ms. */
  time(): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const QUIT_WITHIN_MS = 1_000;
/** A connection that answers no PING for this long is dead (a sleeping laptop, a dropped route): drop it and reconnect. */
const SILENT_FOR_MS = 5_000;
const PING_EVERY_MS = 2_000;

/**
 * TCP alone notices a peer gone without a word (power loss, NAT timeout) only after minutes;
 * meanwhile the link would say "connected" and other hosts would judge this one dead. A PING
 * every 2 s that goes unanswered for 5 s drops the connection, so ioredis reconnects and the
 * outage shows.
 */
function watchForSilence(connection: Redis, isUp: () => boolean, everyMs: number, silent: (on: boolean) => void): () => void {
  let waitingSince: number | undefined;
  const timer = setInterval(() => {
    if (!isUp()) {
      waitingSince = undefined;
      silent(false);
      return;
    }
    if (waitingSince !== undefined) {
      // Admissions wait meanwhile: the status says why before the connection is given up.
      silent(true);
      if (Date.now() - waitingSince > Math.max(SILENT_FOR_MS, 2 * everyMs)) {
        waitingSince = undefined;
        connection.disconnect(true);
      }
      return;
    }
    const sent = Date.now();
    waitingSince = sent;
    connection.ping().then(
      () => {
        if (waitingSince !== sent) return;
        waitingSince = undefined;
        silent(false);
      },
      () => undefined,
    );
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** `pingEveryMs`: how often the connection is checked (tests shorten it). */
export function connectRedis(url: string, { pingEveryMs = PING_EVERY_MS }: { pingEveryMs?: number } = {}): RedisLink {
  const commands = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: null });
  commands.defineCommand("headroomPool", { lua: POOL_SCRIPT, numberOfKeys: 0 });
  commands.defineCommand("headroomBreaker", { lua: BREAKER_SCRIPT, numberOfKeys: 0 });
  let subscriber: Redis | undefined;
  const connectionListeners = new Set<(connected: boolean) => void>();
  let up = false;
  let lastError: string | undefined;
  const tellConnection = (now: boolean) => {
    if (now === up) return;
    up = now;
    for (const listener of connectionListeners) listener(now);
  };
  commands.on("ready", () => {
    lastError = undefined;
    tellConnection(true);
  });
  commands.on("close", () => tellConnection(false));
  let silent = false;
  const stopWatchdog = watchForSilence(commands, () => up, pingEveryMs, (on) => (silent = on));
  // ioredis retries by itself; the outage is reported through `connected` and `lastError`, not thrown.
  commands.on("error", (error: Error) => (lastError = error.message));
  const listeners = new Map<string, Set<(message: string) => void>>();

  const subscriberConnection = (): Redis => {
    if (subscriber) return subscriber;
    subscriber = new Redis(url, { maxRetriesPerRequest: null });
    subscriber.on("error", () => undefined);
    subscriber.on("message", (channel: string, message: string) => {
      for (const listener of listeners.get(channel) ?? []) listener(message);
    });
    return subscriber;
  };

  return {
    get connected() {
      return up;
    },
    get answering() {
      return up && !silent;
    },
    get lastError() {
      return lastError;
    },
    onConnectionChange(listener) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
    run: async (args) => parseReply(await commands.headroomPool(...args)),
    breaker: async (args) => parseBreakerReply(await commands.headroomBreaker(...args)),
    async subscribe(channel, onMessage) {
      const connection = subscriberConnection();
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await connection.subscribe(channel);
      }
      set.add(onMessage);
      return async () => {
        set.delete(onMessage);
        if (set.size > 0) return;
        listeners.delete(channel);
        await connection.unsubscribe(channel);
      };
    },
    async addFloat(key, by, ttlS) {
      const replies = await commands.multi().incrbyfloat(key, by).expire(key, ttlS).exec();
      const [error, sum] = replies?.[0] ?? [new Error("the transaction was discarded"), undefined];
      if (error) throw error;
      return Number(sum);
    },
    async readFloat(key) {
      return Number((await commands.get(key)) ?? 0);
    },
    async writeText(key, value) {
      await commands.set(key, value);
    },
    async readText(key) {
      return (await commands.get(key)) ?? undefined;
    },
    async time() {
      const [seconds, micros] = await commands.time();
      return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    },
    async ping() {
      await commands.ping();
    },
    async close() {
      stopWatchdog();
      // QUIT would wait in the offline queue for a Redis that may never come back, or forever on a dead socket.
      const quitting = up ? Promise.all([commands.quit(), subscriber?.quit()]).catch(() => undefined) : Promise.resolve();
      await Promise.race([quitting, new Promise((resolve) => setTimeout(resolve, QUIT_WITHIN_MS).unref())]);
      commands.disconnect();
      subscriber?.disconnect();
    },
  };
}
