// `headroom run`: wait for a slot, run the command while heartbeating, release it with the
// command's outcome however the command ends, and exit with the command's status. With
// `--resume` (SPEC §8), a command that stopped on a used-up window gives its slot back, waits
// for the reset as a resuming waiter and runs again in its agent's resume form.
import { randomUUID } from "node:crypto";
import { isatty } from "node:tty";
import type { ApiClient } from "../../shared/api-client";
import type { Admission } from "../../shared/types";
import type { AcquireRequest } from "../../shared/validate";
import type { Command } from "../command";
import { formatDuration } from "../../shared/duration";
import { startChild, type RunningChild } from "./child";
import { childEnv } from "./child-env";
import { startHeartbeat } from "./heartbeat";
import { classifyOutcome, type Outcome } from "./outcome";
import { createProgressLine } from "./progress-line";
import { resumePlan } from "./resume-forms";
import { parseRunArgs } from "./run-args";
import { signalExitCode, trapSignals } from "./signals";
import { waitForSlot } from "./wait-for-slot";
import { windowStop, type WindowStop } from "./window-stop";

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
  // SPEC §8 `--resume`: the agent's resume form, and how often it may be used.
  const plan = options.maxResumes === undefined ? undefined : resumePlan(options.command, options.resumeCommand);
  const agent = options.acquire.agentId;
  let command = plan?.first ?? options.command;
  let request: AcquireRequest & { waiterId: string } = options.acquire;
  /** The last child's status: what a run that stops waiting exits with. */
  let lastStatus: number | undefined;
  try {
    for (let resumes = 0; ; resumes++) {
      const admission = await waitForSlot(client, request, waitAbort.signal, createProgressLine(process.stderr));
      if (!admission) return lastStatus ?? signalExitCode(stoppedBy ?? "SIGINT");
      if (resumes > 0) warn(`headroom: resuming ${agent} (${resumes} of ${options.maxResumes})`);
      let outcome: Outcome = { outcome: "failure" };
      let stopped: WindowStop | undefined;
      let output = "";
      const heartbeat = startHeartbeat(client, admission, warn);
      try {
        // A signal that raced the admission: leave without starting the command.
        if (stoppedBy) return lastStatus ?? signalExitCode(stoppedBy);
        const launch = await childEnv({ admission, viaProxy: options.viaProxy, env: process.env, command, client, warn });
        if (stoppedBy) return lastStatus ?? signalExitCode(stoppedBy);
        child = startChild(launch.command, launch.env);
        const result = await child.done;
        child = undefined;
        if (result.startError) warn(`headroom: ${result.startError}`);
        outcome = classifyOutcome(result.exitCode, result.output, Date.now());
        output = result.output;
        lastStatus = result.exitCode;
        const mayResume = plan !== undefined && resumes < (options.maxResumes ?? 0) && !stoppedBy;
        if (result.exitCode !== 0 && mayResume) stopped = await windowStop(client, admission, agent).catch(() => undefined);
        if (!stopped) return result.exitCode;
        // A window is no concurrency problem: the slot goes back without a pause or a reduction.
        outcome = { outcome: "abandoned" };
        warn(stopped.line);
      } finally {
        heartbeat.stop();
        await release(client, admission, outcome);
      }
      command = plan!.next(output);
      // Waits as a resuming waiter: first after the reset's probe, and with no --timeout (SPEC §8).
      const { timeoutMs: _timeout, ...ask } = options.acquire;
      request = { ...ask, waiterId: randomUUID(), resume: true };
    }
  } finally {
    untrap();
  }
};
