// Issue 8: what /events costs the host. Bytes and host CPU per change with 200 reading clients,
// at a short and a full (500-event) history: with history sent as deltas a change costs its own
// size, whatever the history holds. And host RSS with 100 clients that never read: each may
// cost at most one pending snapshot per topic plus 1 MiB before it is dropped.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiClient, type ApiClient } from "../shared/api-client";
import type { BenchSection } from "./bench-types";
import { startServerProcess, type ServerProcess } from "./server-process";
import { cpuMs, pause, rss } from "./proc-stats";
import { formatMb } from "./stats";

const READERS = 200;
const STALLED = 100;
const CHANGES = 100;
/** Longer than the push window (50 ms), so every change goes out on its own. */
const CHANGE_SPACING_MS = 70;
const STALL_SECONDS = 20;

function openStream(url: string, token: string, read: boolean): { socket: Socket; bytes: () => number } {
  const { hostname, port } = new URL(url);
  let bytes = 0;
  const socket = connect(Number(port), hostname, () =>
    socket.write(`GET /events HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${token}\r\n\r\n`),
  );
  socket.on("error", () => undefined);
  if (read) socket.on("data", (chunk: Buffer) => (bytes += chunk.length));
  else socket.pause();
  return { socket, bytes: () => bytes };
}

const route = { targetId: "bench", runtimeId: "http", modelId: "m" };

/** One change: the route opens or closes (a routes snapshot and one history event). */
async function change(api: ApiClient, i: number): Promise<void> {
  if (i % 2 === 0) await api.routeOutcome(route, `run-${i}`, "failure", "bench");
  else await api.routeReset(route);
}

async function perChange(host: ServerProcess, api: ApiClient, token: string, history: number) {
  for (let i = 0; i < history; i++) await change(api, i); // fill the history first
  const readers = Array.from({ length: READERS }, () => openStream(host.url, token, true));
  await pause(1_000);
  const bytesBefore = readers.reduce((sum, r) => sum + r.bytes(), 0);
  const cpuBefore = cpuMs(host.pid);
  for (let i = 0; i < CHANGES; i++) {
    await change(api, history + i);
    await pause(CHANGE_SPACING_MS);
  }
  await pause(500);
  const bytes = readers.reduce((sum, r) => sum + r.bytes(), 0) - bytesBefore;
  const cpu = cpuMs(host.pid) - cpuBefore;
  for (const r of readers) r.socket.destroy();
  return { bytesPerClient: bytes / CHANGES / READERS, cpuPerChange: cpu / CHANGES };
}

async function withHost<T>(run: (host: ServerProcess, api: ApiClient, token: string) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), "headroom-bench-events-"));
  const token = randomBytes(16).toString("hex");
  const host = await startServerProcess(
    "electron/serve.ts",
    ["--port", "0", "--proxy-port", "0", "--data-dir", dataDir],
    /Headroom listening on (http:\/\/127\.0\.0\.1:\d+)\//,
    { ...process.env, HEADROOM_TOKEN: token },
  );
  try {
    const api = createApiClient({ baseUrl: host.url, token });
    await api.setRouteSettings({ threshold: 1 });
    return await run(host, api, token);
  } finally {
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function stalledRss(host: ServerProcess, api: ApiClient, token: string) {
  for (let i = 0; i < 50; i++) {
    await api.setLimit(`p${i}`, 1);
    await api.setProvider(`p${i}`, { upstream: `http://127.0.0.1:9/${"u".repeat(400)}` });
  }
  const stalled = Array.from({ length: STALLED }, () => openStream(host.url, token, false));
  await pause(1_000);
  const samples: number[] = [rss(host.pid)];
  const end = Date.now() + STALL_SECONDS * 1_000;
  for (let i = 0; Date.now() < end; i++) {
    await Promise.all([api.setCooldown("p0", i % 1000), change(api, i)]);
    if (i % 20 === 0) samples.push(rss(host.pid));
  }
  samples.push(rss(host.pid));
  for (const s of stalled) s.socket.destroy();
  return samples;
}

export default async function eventStreamBench(): Promise<BenchSection[]> {
  const short = await withHost((host, api, token) => perChange(host, api, token, 10));
  const full = await withHost((host, api, token) => perChange(host, api, token, 600));
  const bytesRatio = full.bytesPerClient / short.bytesPerClient;
  const samples = await withHost(stalledRss);
  const first = samples[0]!;
  const peak = Math.max(...samples);
  const last = samples.at(-1)!;
  return [
    {
      title: `/events cost per change, ${READERS} reading clients, ${CHANGES} changes ${CHANGE_SPACING_MS} ms apart`,
      rows: [
        { name: "history of 10 events", value: `${short.bytesPerClient.toFixed(0)} B per client · host CPU ${short.cpuPerChange.toFixed(1)} ms per change` },
        {
          name: "history of 500 events",
          value: `${full.bytesPerClient.toFixed(0)} B per client · host CPU ${full.cpuPerChange.toFixed(1)} ms per change`,
          ratio: `${bytesRatio.toFixed(2)}× the bytes of a 10-event history`,
        },
      ],
      target: { text: "bytes per change independent of history length (≤ 1.2× from 10 to 500 events)", met: bytesRatio <= 1.2 },
      notes: ["A change is a route opening or closing: one routes snapshot and one history-added event per client."],
    },
    {
      title: `Host RSS with ${STALLED} clients that never read, ${STALL_SECONDS} s of status and history changes`,
      rows: [
        { name: "RSS at start", value: formatMb(first) },
        { name: "RSS peak", value: formatMb(peak) },
        { name: "RSS at end", value: formatMb(last), ratio: `${(last / first).toFixed(2)}× start` },
      ],
      target: { text: "flat: peak within 64 MB of the start", met: peak - first <= 64 * 1024 * 1024 },
    },
  ];
}
