// Issue 17 (SPEC §3 "Scale"): what a settings change and /events cost at 10 and 1,000
// providers. A `PUT` should cost the changed provider (plus writing the settings file), and a
// status snapshot should be built and serialised once per change, whatever the readers.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiClient, type ApiClient } from "../shared/api-client";
import { CURRENT_SCHEMA_VERSION } from "../shared/schemas";
import type { BenchSection } from "./bench-types";
import { startServerProcess } from "./server-process";
import { cpuMs, pause } from "./proc-stats";
import { formatMs, percentile } from "./stats";

const SIZES = [10, 1_000] as const;
const PUTS = 200;
const READERS = 4;
const CHANGES = 40;
/** Longer than the push window (50 ms), so every change goes out on its own. */
const CHANGE_SPACING_MS = 70;

function openReader(url: string, token: string): Socket {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname, () =>
    socket.write(`GET /events HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${token}\r\n\r\n`),
  );
  socket.on("error", () => undefined);
  socket.on("data", () => undefined);
  return socket;
}

async function measure(size: number): Promise<{ putP95: number; cpuPerChange: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), "headroom-bench-scale-"));
  const providers = Object.fromEntries(Array.from({ length: size }, (_, i) => [`p${String(i).padStart(4, "0")}`, { limit: 4 }]));
  writeFileSync(join(dataDir, "settings.json"), JSON.stringify({ schemaVersion: CURRENT_SCHEMA_VERSION, providers }));
  const token = randomBytes(16).toString("hex");
  const host = await startServerProcess(
    "electron/serve.ts",
    ["--port", "0", "--proxy-port", "0", "--data-dir", dataDir],
    /Headroom listening on (http:\/\/127\.0\.0\.1:\d+)\//,
    { ...process.env, HEADROOM_TOKEN: token },
  );
  try {
    const api: ApiClient = createApiClient({ baseUrl: host.url, token });
    const readers = Array.from({ length: READERS }, () => openReader(host.url, token));
    await pause(1_000);
    const samples: number[] = [];
    for (let i = 0; i < PUTS; i++) {
      const began = performance.now();
      await api.setCooldown("p0000", i % 1000);
      samples.push(performance.now() - began);
    }
    await pause(500);
    const cpuBefore = cpuMs(host.pid);
    for (let i = 0; i < CHANGES; i++) {
      await api.setCooldown("p0000", 1000 + i);
      await pause(CHANGE_SPACING_MS);
    }
    await pause(300);
    const cpuPerChange = (cpuMs(host.pid) - cpuBefore) / CHANGES;
    for (const reader of readers) reader.destroy();
    return { putP95: percentile(samples, 0.95), cpuPerChange };
  } finally {
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export default async function scaleBench(): Promise<BenchSection[]> {
  const results = [];
  for (const size of SIZES) results.push({ size, ...(await measure(size)) });
  const [small, large] = results as [(typeof results)[0], (typeof results)[0]];
  return [
    {
      title: `PUT /concurrency/cooldowns/:id p95 with ${READERS} /events readers, ${PUTS} PUTs`,
      rows: results.map(({ size, putP95 }) => ({
        name: `${size} providers`,
        value: `p95 ${formatMs(putP95)}`,
        ...(size === large.size ? { ratio: `${(large.putP95 / small.putP95).toFixed(2)}× at ${small.size}` } : {}),
      })),
      target: { text: "p95 ≤ 10 ms at 1,000 providers", met: large.putP95 <= 10 },
    },
    {
      title: `/events: host CPU per status change with ${READERS} readers, ${CHANGES} changes ${CHANGE_SPACING_MS} ms apart`,
      rows: results.map(({ size, cpuPerChange }) => ({
        name: `${size} providers`,
        value: `${cpuPerChange.toFixed(1)} ms per change`,
        ...(size === large.size ? { ratio: `${(large.cpuPerChange / Math.max(small.cpuPerChange, 0.1)).toFixed(1)}× at ${small.size}` } : {}),
      })),
      notes: ["A change is a cooldown PUT: one status snapshot built, serialised and sent to each reader."],
    },
  ];
}
