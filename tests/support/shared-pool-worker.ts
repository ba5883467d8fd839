// One host in its own node process for the cross-process tests, on the real clock (Redis's,
// via the offset). With WORKER_HOLD=n it takes n slots, prints { host, held } and keeps them
// (and its heartbeat) until it is killed. Otherwise LANES loops share one SharedPool, each
// taking a slot, calling the counting provider while holding it, and releasing it, until
// COUNT calls are done; it prints { host, admitted, failures, refused } and exits (refused:
// releases Redis answered "not held", a release lost or acknowledged twice).
import { Redis } from "ioredis";
import { systemClock } from "../../electron/engine/clock";
import { redisClock } from "../../electron/shared-pool/redis-clock";
import { connectRedis } from "../../electron/shared-pool/redis-link";
import { SharedPool } from "../../electron/shared-pool/shared-pool";

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
};

const link = connectRedis(env("WORKER_REDIS_URL"));
const clock = await redisClock(link, systemClock);
const host = env("WORKER_HOST");
const pool = new SharedPool({ providerId: "team", host, keyPrefix: env("WORKER_PREFIX"), redis: link, clock });
await pool.start({ limit: Number(env("WORKER_LIMIT")), cooldownMs: 0, autoReduced: false, noticeDismissed: false });

const hold = process.env.WORKER_HOLD;
if (hold !== undefined) {
  for (let i = 0; i < Number(hold); i++) {
    const result = await pool.acquire();
    if (!result.ok) throw new Error(`could not take slot ${i + 1}: ${result.failure.kind}`);
  }
  process.stdout.write(`${JSON.stringify({ host, held: Number(hold) })}\n`);
  // Keeps the process (and so its heartbeat) alive until the test kills it.
  setInterval(() => {}, 60_000);
  await new Promise(() => {});
}

const target = env("WORKER_TARGET");
let remaining = Number(env("WORKER_COUNT"));
let admitted = 0;
let failures = 0;
let refused = 0;
let acquiring = 0;
const lane = async () => {
  while (remaining > 0) {
    remaining--;
    acquiring++;
    const result = await pool.acquire();
    acquiring--;
    if (!result.ok) {
      failures++;
      continue;
    }
    admitted++;
    const response = await fetch(`${target}/?host=${encodeURIComponent(host)}`);
    await response.text();
    if (!(await pool.release(result.lease.leaseId, response.ok ? "success" : "failure"))) refused++;
  }
};
// Asked by the test whether it is stuck: what it is waiting for, then gone.
let phase = "calling";
process.once("SIGTERM", () => {
  const state = { host, phase, remaining, acquiring, admitted, failures, refused, redisConnected: link.connected, held: pool.heldLeases().length, offsetMs: clock.offsetMs, now: clock.now() };
  const raw = new Redis(env("WORKER_REDIS_URL"));
  const keys = `${env("WORKER_PREFIX")}:team`;
  Promise.all([raw.hgetall(`${keys}:held`), raw.zrange(`${keys}:queue`, "0", "-1"), raw.zrange(`${keys}:hosts`, "0", "-1", "WITHSCORES"), raw.hgetall(`${keys}:state`)]).then(
    ([heldInRedis, queue, hosts, shared]) => process.stderr.write(`${JSON.stringify({ ...state, heldInRedis, queue, hosts, shared, mine: pool.heldLeases() })}\n`, () => process.exit(1)),
    () => process.stderr.write(`${JSON.stringify(state)}\n`, () => process.exit(1)),
  );
});
await Promise.all(Array.from({ length: Number(env("WORKER_LANES")) }, lane));
process.stdout.write(`${JSON.stringify({ host, admitted, failures, refused })}\n`);
phase = "disposing";
await pool.dispose();
phase = "closing";
clock.stop();
await link.close();
