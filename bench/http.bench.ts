// Issue 2, part 4: an agent's acquire + release round trip over HTTP against the Headroom host,
// beside a bare node:http server answering the same two requests: what the host's rules,
// validation and bookkeeping add to a round trip. Both servers run as processes of their own.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiClient } from "../shared/api-client";
import type { BenchRow, BenchSection } from "./bench-types";
import { type LeaseServer, leaseServer, roundTrips } from "./http-round-trip";
import { type ServerProcess, startServerProcess } from "./server-process";
import { formatMs, formatRate, median, percentile, spread } from "./stats";

const CLIENT_COUNTS = [1, 32] as const;
const ROUNDS = 9;
/** Round trips per client per round: 500 and 960 samples a round. */
const EACH = { 1: 500, 32: 30 } as const;
const WARM_UP_EACH = { 1: 300, 32: 10 } as const;
const PHASE_TIME_LIMIT_MS = 15_000;
/** High enough that 32 clients never queue: the bench measures a round trip, not a wait. */
const HOST_LIMIT = 64;
const TARGET_RATIO = 1.5;

interface Measured {
  samples: number[];
  /** Round trips a second, one figure per round. */
  rates: number[];
  /** p50 of each round, to pair with the other server's p50 in the same round. */
  roundP50: number[];
}

async function phase(server: LeaseServer, clients: 1 | 32, each: number, into?: Measured): Promise<void> {
  const start = performance.now();
  const samples = await roundTrips(server, clients, each, start + PHASE_TIME_LIMIT_MS);
  if (!into) return;
  into.samples.push(...samples);
  into.rates.push(samples.length / ((performance.now() - start) / 1000));
  into.roundP50.push(median(samples));
}

/** Warm-up, then rounds that alternate which server goes first. */
async function compare(servers: [LeaseServer, LeaseServer], clients: 1 | 32): Promise<Measured[]> {
  const measured = servers.map((): Measured => ({ samples: [], rates: [], roundP50: [] }));
  for (const server of servers) await phase(server, clients, WARM_UP_EACH[clients]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
      await phase(servers[i] as LeaseServer, clients, EACH[clients], measured[i]);
    }
  }
  return measured;
}

function figure({ samples, rates }: Measured): string {
  return `p50 ${formatMs(median(samples))} · p99 ${formatMs(percentile(samples, 0.99))} · ${formatRate(median(rates), "round trips/s")} (n = ${samples.length})`;
}

async function startServers(dataDir: string, token: string, into: ServerProcess[]): Promise<[string, string]> {
  const host = await startServerProcess(
    "electron/serve.ts",
    ["--port", "0", "--proxy-port", "0", "--data-dir", dataDir],
    /Headroom listening on (http:\/\/127\.0\.0\.1:\d+)\//,
    { ...process.env, HEADROOM_TOKEN: token },
  );
  into.push(host);
  const bare = await startServerProcess("bench/bare-server.ts", [], /bare server listening on (http:\/\/127\.0\.0\.1:\d+)/);
  into.push(bare);
  // Set up through the one typed client, as any tool would.
  const api = createApiClient({ baseUrl: host.url, token });
  await api.setLimit("bench", HOST_LIMIT);
  await api.setCooldown("bench", 0);
  return [host.url, bare.url];
}

export default async function httpBench(): Promise<BenchSection[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "headroom-bench-"));
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  process.on("exit", removeDataDir); // also when a signal cuts the bench short
  const token = randomBytes(24).toString("hex");
  const processes: ServerProcess[] = [];
  let servers: [LeaseServer, LeaseServer] | undefined;
  try {
    const [hostUrl, bareUrl] = await startServers(dataDir, token, processes);
    const sockets = Math.max(...CLIENT_COUNTS);
    servers = [leaseServer("headroom", hostUrl, token, sockets), leaseServer("bare", bareUrl, token, sockets)];
    const rows: BenchRow[] = [];
    const ratios: number[] = [];
    for (const clients of CLIENT_COUNTS) {
      const [headroom, bare] = (await compare(servers, clients)) as [Measured, Measured];
      const perRound = headroom.roundP50.map((p50, round) => p50 / (bare.roundP50[round] ?? Number.NaN));
      const { min, max } = spread(perRound);
      const p99Ratio = percentile(headroom.samples, 0.99) / percentile(bare.samples, 0.99);
      ratios.push(median(perRound));
      rows.push(
        {
          name: `headroom host, ${clients} client${clients > 1 ? "s" : ""}`,
          value: figure(headroom),
          ratio: `p50 ${median(perRound).toFixed(2)}× bare (rounds ${min.toFixed(2)}–${max.toFixed(2)}) · p99 ${p99Ratio.toFixed(2)}× bare`,
        },
        { name: `bare node:http, ${clients} client${clients > 1 ? "s" : ""}`, value: figure(bare), ratio: "baseline" },
      );
    }
    const worst = Math.max(...ratios);
    return [
      {
        title: "HTTP acquire + release round trip (keep-alive, node:http client)",
        rows,
        target: {
          text: `p50 ≤ ${TARGET_RATIO}× bare at 1 and 32 clients (this run: ${ratios.map((r) => `${r.toFixed(2)}×`).join(" and ")})`,
          met: worst <= TARGET_RATIO,
        },
        notes: [
          `One round trip = POST /concurrency/acquire, then POST /concurrency/leases/:id/release as success, timed together.`,
          `Headroom: \`electron/serve.ts\` in its own process on a temp data folder, provider limit ${HOST_LIMIT}, cooldown 0; ` +
            "the bare server (bench/bare-server.ts) in another process answers the same requests with same-shaped JSON and no rules.",
          `After a warm-up, ${ROUNDS} rounds alternate which server goes first; ratio = median over rounds of the two p50s in the same round.`,
          "Client, both servers and anything else running share the machine's cores, so absolute times move with its load; the ratio is the figure to read.",
        ],
      },
    ];
  } finally {
    for (const server of servers ?? []) server.agent.destroy();
    await Promise.allSettled(processes.map((p) => p.stop()));
    process.off("exit", removeDataDir);
    removeDataDir();
  }
}
