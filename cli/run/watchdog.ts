// Makes the command die with `headroom run`, even when the wrapper itself is killed with
// SIGKILL and runs no code of its own (SPEC §6: a command must not run on without a slot).
//
// Why a watchdog process: the command stays in the wrapper's process group, because terminal
// agents (claude, codex) need the terminal's foreground group and Node cannot hand that over
// to a new group (no tcsetpgrp), so "kill the group" is not available; and Linux's
// PR_SET_PDEATHSIG is out of Node's reach. So a tiny Node process holds the read end of a pipe
// from the wrapper. Only the wrapper holds the write end (the command was started before the
// pipe existed), so the pipe closes exactly when the wrapper dies, however it dies; the
// watchdog then sends the command SIGTERM, and SIGKILL if it is still there after a grace.
// When the command ends on its own, the wrapper kills the watchdog first, so a reused pid is
// never signalled.
import { spawn } from "node:child_process";
import type { Socket } from "node:net";

/** How long a command gets between SIGTERM and SIGKILL once its wrapper is gone. */
const WATCHDOG_GRACE_MS = 3000;

// Plain JavaScript run with `node -e`, so the bundled CLI needs no second file. argv[1] is the
// command's pid, argv[2] the grace in ms. It ignores the terminal's signals: a Ctrl-C reaches
// the whole foreground group, and the watchdog must outlive the wrapper to do its job.
const WATCHDOG_SOURCE = `
const pid = Number(process.argv[1]);
const graceMs = Number(process.argv[2]);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"]) process.on(signal, () => {});
const alive = () => { try { process.kill(pid, 0); return true; } catch (error) { return error.code === "EPERM"; } };
const send = (signal) => { try { process.kill(pid, signal); } catch {} };
process.stdin.resume();
process.stdin.on("close", () => {
  send("SIGTERM");
  const started = Date.now();
  const check = setInterval(() => {
    if (!alive()) process.exit(0);
    if (Date.now() - started >= graceMs) { send("SIGKILL"); process.exit(0); }
  }, 50);
});
`;

export interface Watchdog {
  /** The command has ended by itself: the watchdog goes, without touching its pid. */
  stop(): void;
}

export function watchChild(pid: number): Watchdog {
  const watchdog = spawn(process.execPath, ["-e", WATCHDOG_SOURCE, String(pid), String(WATCHDOG_GRACE_MS)], {
    stdio: ["pipe", "ignore", "ignore"],
    windowsHide: true,
  });
  // Neither the process nor the pipe may keep the wrapper alive; the pipe is closed by our exit.
  watchdog.unref();
  // A pipe to a child is a socket (Node types it as a plain Writable).
  (watchdog.stdin as Socket).unref();
  watchdog.stdin!.on("error", () => undefined);
  watchdog.on("error", () => undefined);
  return {
    stop() {
      if (watchdog.exitCode === null && watchdog.signalCode === null) watchdog.kill("SIGKILL");
    },
  };
}
