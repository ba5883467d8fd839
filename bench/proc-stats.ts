// A server process's CPU time and memory, read from /proc (Linux only, like the benches).
import { readFileSync } from "node:fs";

const TICK_MS = 1000 / 100; // /proc CPU times are in clock ticks of 10 ms (USER_HZ 100)

/** User plus system CPU time the process has used, in ms. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime + stime
}

export function rss(pid: number): number {
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
