// `headroom run`: wait for a slot, run the command while heartbeating, release it with the
// command's outcome however the command ends, and exit with the command's status.
import { isatty } from "node:tty";
import type { ApiClient } from "../../shared/api-client";
import type { Admission } from "../../shared/types";
import type { Command } from "../command";
import { formatDuration } from "../../shared/duration";
import { startChild, type RunningChild } from "./child";
import { childEnv } from "./child-env";
import { startHeartbeat } from "./heartbeat";
import { classifyOutcome, type Outcome } from "./outcome";
import { createProgressLine } from "./progress-line";
import { parseRunArgs } from "./run-args";
import { signalExitCode, trapSignals } from "./signals";
import { waitForSlot } from "./wait-for-slot";

const warn = (message: string) => process.stderr.write(`${message}\n`);

async function release(client: ApiClient, admission: Admission, { outcome, retryAfterMs }: Outcome): Promise<void> {
  try {
    await client.release(admission.leaseId, outcome, retryAfterMs);
    if (outcome === "rate_limited") {
      const wait = retryAfterMs === undefined ? "with a backoff" : `for ${formatDuration(retryAfterMs)}`;
      warn(`headroom: the command hit a rate limit; ${admission.providerId} is paused ${wait}.`);
    }
  } catch (error) {
    const expiry = admission.expiresAt === undefined ? "" : " it expires on its own within its TTL;";
    warn(`headroom: could not release the slot on ${admission.providerId} (${(error as Error).message});${expiry} check \`headroom status\`.`);
  }
}

export const runCommand: Command = async (argv, context) => {
  const options = parseRunArgs(argv);
  const { client } = context.connection();
  const waitAbort = new AbortController();
  let child: RunningChild | undefined;
  let stoppedBy: NodeJS.Signals | undefined;
  let forwarded = 0;

  const untrap = trapSignals((signal) => {
    stoppedBy ??= signal;
    if (!child) return waitAbort.abort();
    // Ctrl-C on a terminal already reaches the command (same process group); sending it again
    // would count as a second Ctrl-C, which makes several agents quit instead of cancel.
    if (signal === "SIGINT" && isatty(0)) return;
    // Asked twice: a command that ignored the first signal is killed, so it cannot keep the
    // slot (and the terminal) after the person or supervisor has said stop.
    child.forward(++forwarded > 1 ? "SIGKILL" : signal);
  });
  try {
    const admission = await waitForSlot(client, options.acquire, waitAbort.signal, createProgressLine(process.stderr));
    if (!admission) return signalExitCode(stoppedBy ?? "SIGINT");
    let outcome: Outcome = { outcome: "failure" };
    const heartbeat = startHeartbeat(client, admission, warn);
    try {
      // A signal that raced the admission: leave without starting the command.
      if (stoppedBy) return signalExitCode(stoppedBy);
      const launch = await childEnv({ admission, viaProxy: options.viaProxy, env: process.env, command: options.command, client, warn });
      if (stoppedBy) return signalExitCode(stoppedBy);
      child = startChild(launch.command, launch.env);
      const result = await child.done;
      if (result.startError) warn(`headroom: ${result.startError}`);
      outcome = classifyOutcome(result.exitCode, result.output, Date.now());
      return result.exitCode;
    } finally {
      heartbeat.stop();
      await release(client, admission, outcome);
    }
  } finally {
    untrap();
  }
};
