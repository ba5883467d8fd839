// What a shared pool (shared-pool.ts) is given: who this host is, its link to Redis, the
// clock it judges on, and where what happens goes.
import type { HistoryEvent } from "../../shared/types";
import type { Clock } from "../engine/clock";
import type { RedisLink } from "./redis-link";

export interface SharedPoolDeps {
  providerId: string;
  /** This host's name in shared state (SPEC §7: HEADROOM_HOST_NAME, else `<hostname>:<port>`). */
  host: string;
  /**
   * The random part of this host's waiter ids, which become its lease ids (`<host>.<32 hex>`):
   * unguessable (SPEC §3), so a restarted host never hands out an id it held before nor one
   * still recycling. Tests leave it out and get `<host>.<n>`, counted past restored leases.
   */
  newId?: () => string;
  redis: RedisLink;
  /** Keys live under `<keyPrefix>:<providerId>:` (default prefix `headroom`). */
  keyPrefix?: string;
  /** Redis's time, in this host's terms it is `Date.now() + offset` (see redis-clock.ts). */
  clock: Clock;
  /** That offset, for times put into words for people (their local clock time); 0 when absent. */
  offsetMs?: () => number;
  /** How often a host with waiters asks Redis again in case a wake-up was lost; 0 = never. */
  pollMs?: number;
  /** How often this host says it is alive (default 2 s); 0 = never, to play a host that died. */
  refreshMs?: number;
  onEvent?: (event: Omit<HistoryEvent, "at" | "providerId">) => void;
  onChange?: () => void;
  /** A TTL lease of this host's ran out without a heartbeat and was released as a failure. */
  onLeaseExpired?: (leaseId: string) => void;
  /** Diagnostics: a lease re-registered after the 10 s window of a Redis that lost its data. */
  log?: (message: string) => void;
  /** A call nobody awaits failed (Redis answered with an error); awaited calls reject instead. */
  onError?: (error: Error) => void;
}
