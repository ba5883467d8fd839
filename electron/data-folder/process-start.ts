// When a process started, to tell a live host from a stranger that was given its pid after
// it died (SPEC §5): pids are reused, so "a process with this pid exists" is not "the host
// that wrote the lock is running".
import { execFileSync } from "node:child_process";
import fs from "node:fs";

// USER_HZ, the unit of /proc/<pid>/stat's start time: 100 on every Linux architecture the
// kernel exports to user space (sysconf(_SC_CLK_TCK) is not reachable from Node).
const LINUX_TICKS_PER_SECOND = 100;

function linuxBootTimeMs(): number | undefined {
  const line = /^btime (\d+)$/m.exec(fs.readFileSync("/proc/stat", "utf8"));
  return line ? Number(line[1]) * 1000 : undefined;
}

function linuxStartTime(pid: number): number | undefined {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // Field 2, the command name, is in parentheses and may itself hold spaces or ")": the
  // fields after it are counted from its last ")". starttime is field 22.
  const afterName = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(afterName[22 - 3]);
  const boot = linuxBootTimeMs();
  if (!Number.isFinite(ticks) || boot === undefined) return undefined;
  return boot + (ticks * 1000) / LINUX_TICKS_PER_SECOND;
}

function macStartTime(pid: number): number | undefined {
  // lstart is local time to the second, e.g. "Mon Nov 30 15:01:19 2026"; LC_ALL=C keeps it English.
  const text = execFileSync("ps", ["-o", "lstart=", "-p", String(pid)], {
    encoding: "utf8",
    env: { ...process.env, LC_ALL: "C" },
    stdio: ["ignore", "pipe", "ignore"],
    timeout: 2000,
  }).trim();
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : time;
}

/**
 * The wall-clock moment (epoch ms) process `pid` started, or undefined when this platform
 * cannot say or the process is gone. Both sources round down (Linux's boot time to the
 * second, macOS's start time to the second), so a process never looks younger than it is.
 */
export function processStartTime(pid: number): number | undefined {
  try {
    if (process.platform === "linux") return linuxStartTime(pid);
    if (process.platform === "darwin") return macStartTime(pid);
  } catch {
    // Gone between the liveness check and this read, or no /proc or ps: cannot say.
  }
  return undefined;
}
