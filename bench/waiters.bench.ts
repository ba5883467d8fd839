// Issue 2, part 2: what 100k queued waiters cost. Heap growth is read after full collections
// (the runner exposes gc), and status() is timed at 1k, 10k and 100k waiters: it reads kept
// counts, so its time should not move. leases() walks the queue by design and is timed
// beside it as a control, proving the method would show an O(n) read if status() were one.
import type { BenchSection } from "./bench-types";
import { systemClock } from "../electron/engine/clock";
import type { AcquireOptions, ProviderPool } from "../electron/engine/pool-types";
import { createProviderPool } from "../electron/engine/provider-pool";
import { settledHeapBytes } from "./heap";
import { formatMb, formatMs, formatNs, median } from "./stats";

const LIMIT = 8;
const SIZES = [1_000, 10_000, 100_000] as const;
const HEAP_TARGET_BYTES = 50 * 1024 * 1024;
/** "Flat" leaves room for noise on a shared machine: within this factor of the 1k figure. */
const FLAT_FACTOR = 2;
const STATUS_BATCHES = 7;
const STATUS_CALLS_PER_BATCH = 20_000;
const LEASES_BATCHES = 5;
const LEASES_CALLS_PER_BATCH = 3;

function fullPool(): ProviderPool {
  let next = 0;
  const pool = createProviderPool(
    { limit: LIMIT, cooldownMs: 0, autoReduced: false, noticeDismissed: false },
    { providerId: "bench", clock: systemClock, newId: () => `L${++next}` },
  );
  // Hold every slot so each later acquire queues.
  for (let i = 0; i < LIMIT; i++) void pool.acquire();
  return pool;
}

/** Median time of one call over batches (a batch amortises the timer's own cost), after one warm-up batch. */
function timePerCall(call: () => number, batches: number, callsPerBatch: number): number {
  const perCall: number[] = [];
  let sink = 0;
  for (let b = 0; b <= batches; b++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < callsPerBatch; i++) sink += call();
    if (b > 0) perCall.push(Number(process.hrtime.bigint() - start) / callsPerBatch);
  }
  if (sink < 0) throw new Error("unreachable: keeps the calls from being optimised away");
  return median(perCall);
}

interface Fill {
  heapBytes: number;
  enqueueMs: number;
  statusNs: Map<number, number>;
  leasesNs: Map<number, number>;
}

async function fill(options: () => AcquireOptions, timed: boolean): Promise<Fill> {
  const pool = fullPool();
  const before = settledHeapBytes();
  const statusNs = new Map<number, number>();
  const leasesNs = new Map<number, number>();
  let enqueueMs = 0;
  let queued = 0;
  for (const size of SIZES) {
    const start = performance.now();
    // The pool keeps each waiter's resolve; the bench keeps nothing, so the heap is the pool's.
    for (; queued < size; queued++) void pool.acquire(options());
    enqueueMs += performance.now() - start;
    if (pool.status().queued !== size) throw new Error(`expected ${size} waiters, status says ${pool.status().queued}`);
    if (!timed) continue;
    statusNs.set(size, timePerCall(() => pool.status().queued, STATUS_BATCHES, STATUS_CALLS_PER_BATCH));
    leasesNs.set(size, timePerCall(() => pool.leases().waiting.length, LEASES_BATCHES, LEASES_CALLS_PER_BATCH));
  }
  const heapBytes = settledHeapBytes() - before;
  pool.dispose(); // answers every waiter with `removed`
  return { heapBytes, enqueueMs, statusNs, leasesNs };
}

export default async function waitersBench(): Promise<BenchSection[]> {
  const largest = SIZES[SIZES.length - 1] as number;
  const plain = await fill(() => ({}), true);
  // As the API queues them: an agent id and a deadline, which the pool tracks under one shared timer.
  const withDeadline = await fill(() => ({ agentId: "agent-1", timeoutMs: 600_000 }), false);

  const status = (size: number) => plain.statusNs.get(size) ?? Number.NaN;
  const leases = (size: number) => plain.leasesNs.get(size) ?? Number.NaN;
  const flatness = status(largest) / status(SIZES[0]);
  const perWaiter = (bytes: number) => `${Math.round(bytes / largest)} B a waiter`;
  return [
    {
      title: `${largest.toLocaleString("en")} queued waiters: heap and status() time`,
      rows: [
        {
          name: `heap growth, ${largest.toLocaleString("en")} plain waiters`,
          value: `${formatMb(plain.heapBytes)} (${perWaiter(plain.heapBytes)}); queued in ${formatMs(plain.enqueueMs)}`,
          ratio: `${(plain.heapBytes / HEAP_TARGET_BYTES).toFixed(2)}× the 50 MB budget`,
        },
        {
          name: `heap growth, ${largest.toLocaleString("en")} waiters with agentId and timeoutMs`,
          value: `${formatMb(withDeadline.heapBytes)} (${perWaiter(withDeadline.heapBytes)}); queued in ${formatMs(withDeadline.enqueueMs)}`,
          ratio: `${(withDeadline.heapBytes / HEAP_TARGET_BYTES).toFixed(2)}× the 50 MB budget`,
        },
        ...SIZES.map((size) => ({
          name: `status() at ${size.toLocaleString("en")} waiters`,
          value: formatNs(status(size)),
          ratio: `${(status(size) / status(SIZES[0])).toFixed(2)}× the 1k figure`,
        })),
        ...SIZES.map((size) => ({
          name: `control: leases() at ${size.toLocaleString("en")} waiters (O(n) by design)`,
          value: formatNs(leases(size)),
          ratio: `${(leases(size) / leases(SIZES[0])).toFixed(1)}× the 1k figure`,
        })),
      ],
      target: {
        text:
          `heap ≤ 50 MB for ${largest.toLocaleString("en")} waiters and flat status() time, i.e. within ${FLAT_FACTOR}× of the 1k figure ` +
          `(this run: ${formatMb(plain.heapBytes)}, ${flatness.toFixed(2)}×)`,
        met: plain.heapBytes <= HEAP_TARGET_BYTES && flatness <= FLAT_FACTOR,
      },
      notes: [
        `Limit ${LIMIT}, all slots held, then waiters queued to each size; heap = heapUsed after two full GCs, minus the same before queueing.`,
        `status() time: median of ${STATUS_BATCHES} batches of ${STATUS_CALLS_PER_BATCH.toLocaleString("en")} calls; ` +
          `leases(): median of ${LEASES_BATCHES} batches of ${LEASES_CALLS_PER_BATCH} calls; each after one unmeasured batch.`,
        "The deadline row includes each waiter's deadline bookkeeping under one shared timer (timeoutMs 10 min); the HTTP layer adds its own request objects on top, not measured here.",
      ],
    },
  ];
}
