// What the gating proxy costs an agent (issue 4, "Measure"): added latency per request at
// 1, 32 and 256 concurrent requests, and the throughput of a 10 MB streamed answer, each
// against going straight to the fake provider. Loopback only; every process is stopped.
import type { ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import type { BenchRow, BenchSection } from "./bench-types";
import { conversationBody } from "./conversation-body";
import { cpuMs } from "./proc-stats";
import { startBenchServer, stopBenchServer } from "./proxy-bench-process";

const BODY = Buffer.from(JSON.stringify({ model: "bench-model", max_tokens: 16, messages: [{ role: "user", content: "hi" }] }));
// Each answer takes MODEL_MS upstream, so N concurrent requests are N agents waiting on a
// model, as in use, instead of a zero-latency flood that only measures who saturates the CPU
// first. 50 ms is still 20-100× shorter than a real model call: a pessimistic request rate.
const MODEL_MS = 50;
const LEVELS = [
  { concurrency: 1, requests: 150 },
  { concurrency: 32, requests: 3_840 },
  { concurrency: 256, requests: 7_680 },
];
const ROUNDS = 3;
/** Requests with a 295 KB conversation body, what an agent sends mid-session. */
const BIG_BODY = { concurrency: 32, requests: 960 };
const STREAM_BYTES = 10 * 1024 * 1024;
const STREAM_RUNS = 7;

/** One POST; resolves with the milliseconds to the last byte. */
function timed(url: string, agent: Agent, body: Buffer): Promise<{ ms: number; bytes: number; status: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(url, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": body.length } }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.length));
      res.on("end", () => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, bytes, status: res.statusCode ?? 0 }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function latencies(url: string, concurrency: number, total: number, body: Buffer = BODY): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const samples: number[] = [];
  const run = async (count: number, keep: boolean) => {
    let left = count;
    const worker = async () => {
      while (left-- > 0) {
        const { ms, status } = await timed(url, agent, body);
        if (status !== 200) throw new Error(`bench request answered ${status}`);
        if (keep) samples.push(ms);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };
  try {
    await run(Math.max(20, concurrency * 2), false); // warm sockets, JIT and the keep-alive pools
    await run(total, true);
  } finally {
    agent.destroy();
  }
  return samples.sort((a, b) => a - b);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (v: number) => `${v.toFixed(2)} ms`;
const signed = (v: number) => `${v >= 0 ? "+" : "−"}${ms(Math.abs(v))}`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Median MB/s of the 10 MB answer per URL, the URLs taking turns run after run. */
async function streamRates(urls: string[]): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const body = Buffer.from(JSON.stringify({ model: "bench-model", fake_stream_bytes: STREAM_BYTES }));
  const rate = async (url: string) => {
    const { ms: took, bytes } = await timed(url, agent, body);
    if (bytes !== STREAM_BYTES) throw new Error(`streamed ${bytes} of ${STREAM_BYTES} bytes`);
    return bytes / 1024 / 1024 / (took / 1000);
  };
  const rates = urls.map((): number[] => []);
  try {
    for (const url of urls) await rate(url); // warm-up
    for (let i = 0; i < STREAM_RUNS; i++) for (const [j, url] of urls.entries()) rates[j]!.push(await rate(url));
  } finally {
    agent.destroy();
  }
  return rates.map(median);
}

interface Contender {
  name: string;
  url: string;
  /** The process that makes the extra hop (relay or host), whose CPU per request is read. */
  pid?: number;
}

export default async function proxyBench(): Promise<BenchSection[]> {
  const servers: ChildProcess[] = [];
  const start = async (args: string[]) => {
    const started = await startBenchServer(args, 1);
    servers.push(started.child);
    return { url: started.lines[0]!, pid: started.child.pid! };
  };
  try {
    const fake = (await start(["fake", String(MODEL_MS)])).url;
    const relay = await start(["relay", fake]);
    const host = await start(["host", fake]);
    const contenders: Contender[] = [
      { name: "direct", url: `${fake}/v1/messages` },
      { name: "bare Node relay (floor of any extra hop)", url: `${relay.url}/v1/messages`, pid: relay.pid },
      { name: "through the Headroom proxy", url: `${host.url}/v1/messages`, pid: host.pid },
    ];

    const rows: BenchRow[] = [];
    const addedAt32 = { relay: Number.POSITIVE_INFINITY, proxy: Number.POSITIVE_INFINITY };
    // At 256 the cores saturate: the proxy's own work per request shows against the relay's.
    const addedAt256 = { relay: Number.POSITIVE_INFINITY, proxy: Number.POSITIVE_INFINITY };
    for (const { concurrency, requests } of LEVELS) {
      // The contenders take turns, so a burst of other work on the machine hits all of them.
      const samples = contenders.map((): number[] => []);
      const cpu = contenders.map(() => 0);
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i, c] of contenders.entries()) {
          const before = c.pid === undefined ? 0 : cpuMs(c.pid);
          samples[i]!.push(...(await latencies(c.url, concurrency, requests / ROUNDS)));
          if (c.pid !== undefined) cpu[i]! += cpuMs(c.pid) - before;
        }
      }
      // Per request sent, the warm-up's included (latencies() sends those first).
      const sent = ROUNDS * (requests / ROUNDS + Math.max(20, concurrency * 2));
      const cpuPerRequest = (i: number) => `${((cpu[i]! * 1000) / sent).toFixed(0)} µs`;
      for (const list of samples) list.sort((a, b) => a - b);
      const direct = samples[0]!;
      for (const [i, c] of contenders.entries()) {
        const own = samples[i]!;
        const added50 = pct(own, 50) - pct(direct, 50);
        const added99 = pct(own, 99) - pct(direct, 99);
        if (concurrency === 32 && i === 1) addedAt32.relay = added50;
        if (concurrency === 32 && i === 2) addedAt32.proxy = added50;
        if (concurrency === 256 && i === 1) addedAt256.relay = added50;
        if (concurrency === 256 && i === 2) addedAt256.proxy = added50;
        rows.push({
          name: `${c.name}, ${concurrency} concurrent`,
          value: `p50 ${ms(pct(own, 50))} · p99 ${ms(pct(own, 99))}`,
          ...(i === 0 ? {} : { ratio: `${signed(added50)} p50 · ${signed(added99)} p99` }),
        });
      }
      // Saturated, latency follows CPU per request: the figure issue 27 item 6 cut (docs/proxy.md).
      if (concurrency === 256) {
        rows.push({ name: "CPU per request of the hop's process, 256 concurrent (/proc)", value: `proxy host ${cpuPerRequest(2)}`, ratio: `relay ${cpuPerRequest(1)}` });
      }
    }

    // The same with a conversation body: the per-body work (reading it whole, finding its
    // model) that 83-byte bodies hide.
    const big = conversationBody(200);
    const bigSamples = contenders.map((): number[] => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, c] of contenders.entries()) bigSamples[i]!.push(...(await latencies(c.url, BIG_BODY.concurrency, BIG_BODY.requests / ROUNDS, big)));
    }
    for (const list of bigSamples) list.sort((a, b) => a - b);
    const bigRows: BenchRow[] = contenders.map((c, i) => {
      const own = bigSamples[i]!;
      const direct = bigSamples[0]!;
      return {
        name: `${c.name}, ${BIG_BODY.concurrency} concurrent, ${(big.length / 1024).toFixed(0)} KB bodies`,
        value: `p50 ${ms(pct(own, 50))} · p99 ${ms(pct(own, 99))}`,
        ...(i === 0 ? {} : { ratio: `${signed(pct(own, 50) - pct(direct, 50))} p50 · ${signed(pct(own, 99) - pct(direct, 99))} p99` }),
      };
    });

    const rates = await streamRates(contenders.map((c) => c.url));
    const share = rates[2]! / rates[0]!;

    return [
      {
        title: `Gating proxy: added latency (answers after ${MODEL_MS} ms of model time, keep-alive, limit never reached)`,
        rows,
        target: {
          text: "issue 27: added p50 at 32 concurrent < 1.5× the bare relay's, and at 256 < 2× the relay's",
          met: addedAt32.proxy < 1.5 * Math.max(addedAt32.relay, 0) && addedAt256.proxy < 2 * Math.max(addedAt256.relay, 0),
        },
        notes: [
          "Client, relay, proxy host and fake provider each run in their own process on 127.0.0.1, sharing the machine's cores.",
          "Added = minus direct at the same percentile. The bare relay row is what one more Node hop costs on this machine.",
          "At 256 concurrent (5 000 requests/s with 50 ms answers) the cores are saturated: the gap to the relay is the proxy's own work per request (body parse, pool, breaker), queued.",
          `Requests per level: ${LEVELS.map((l) => `${l.requests} at ${l.concurrency}`).join(", ")}, in ${ROUNDS} alternating rounds after a warm-up.`,
        ],
      },
      {
        title: `Gating proxy: added latency with a conversation body (bench/conversation-body.ts, ${(big.length / 1024).toFixed(0)} KB, ${BIG_BODY.concurrency} concurrent)`,
        rows: bigRows,
        notes: [
          "What an agent sends mid-session: its whole conversation each turn. The relay streams the body through; the proxy reads it whole (a gated body must be, SPEC §6) and scans it for its model.",
          `The body asks for a stream: the fake answers with its events 50 ms apart (about 255 ms direct). ${BIG_BODY.requests} requests per contender in ${ROUNDS} alternating rounds after a warm-up.`,
        ],
      },
      {
        title: "Gating proxy: 10 MB streamed answer",
        rows: contenders.map((c, i) => ({
          name: c.name,
          value: `${rates[i]!.toFixed(0)} MB/s`,
          ...(i === 0 ? {} : { ratio: `${(rates[i]! / rates[0]!).toFixed(2)}× direct` }),
        })),
        target: { text: "≥ 0.8× direct throughput", met: share >= 0.8 },
        notes: [
          `Median of ${STREAM_RUNS} alternating runs each of ${STREAM_BYTES / 1024 / 1024} MiB in 64 KiB chunks, read as fast as the client can.`,
          "Direct is two processes on two cores; a proxied stream needs three busy processes on the same two.",
        ],
      },
    ];
  } finally {
    for (const child of servers.reverse()) await stopBenchServer(child);
  }
}
