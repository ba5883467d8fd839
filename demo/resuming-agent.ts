// The demo's headless agent under `headroom run --resume` (SPEC §8), played in-process the way
// the CLI does it: it holds a lease and sends its requests riding it; when the demo's plan
// window is used up a request is refused (`stoppedBy` on the lease), so it gives the slot back
// as abandoned, waits as a resuming waiter (first in line after the reset's probe, `resuming`
// in the window) and goes on at the reset.
import { setTimeout as sleep } from "node:timers/promises";
import type { HeadroomService } from "../electron/service/headroom-service";

export interface ResumingAgentOptions {
  service: HeadroomService;
  providerId: string;
  proxyUrl: string;
  /** The lease's agent name (`headroom run --agent`) and the label its requests carry. */
  agentId: string;
  name: string;
  userAgent: string;
  model: string;
  signal: AbortSignal;
}

async function ask(options: ResumingAgentOptions, leaseId: string): Promise<number> {
  const response = await fetch(`${options.proxyUrl}/${options.providerId}/_lease/${encodeURIComponent(leaseId)}/v1/messages`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-api-key": "demo-key-not-a-secret",
      "anthropic-version": "2023-06-01",
      "x-headroom-agent": options.name,
      "user-agent": options.userAgent,
    },
    body: JSON.stringify({ model: options.model, max_tokens: 256, messages: [{ role: "user", content: "Work through TODO.md." }] }),
    signal: options.signal,
  });
  await response.arrayBuffer();
  return response.status;
}

/** One run of the "command": requests riding the lease until one is not answered 200. */
async function work(options: ResumingAgentOptions, leaseId: string): Promise<number> {
  for (;;) {
    const status = await ask(options, leaseId);
    if (status !== 200) return status;
    await sleep(300 + Math.random() * 700, undefined, { signal: options.signal });
  }
}

/** Runs until the signal aborts; never throws. */
export async function runResumingAgent(options: ResumingAgentOptions): Promise<void> {
  const { service, providerId, agentId, signal } = options;
  let resume = false;
  while (!signal.aborted) {
    try {
      const admission = await service.acquire({ providerId, agentId, ttlMs: 15_000, signal, ...(resume ? { resume } : {}) });
      const heartbeat = setInterval(() => service.heartbeat({ leaseId: admission.leaseId }), 5_000);
      let status = 0;
      try {
        status = await work(options, admission.leaseId);
      } finally {
        clearInterval(heartbeat);
        const stoppedBy = service.leases({ providerId }).held.find((lease) => lease.leaseId === admission.leaseId)?.stoppedBy;
        resume = stoppedBy !== undefined;
        service.release({ leaseId: admission.leaseId, outcome: resume ? "abandoned" : status === 200 ? "success" : "failure" });
      }
      if (!resume) await sleep(1_000, undefined, { signal });
    } catch {
      if (signal.aborted) return;
      await sleep(1_000, undefined, { signal }).catch(() => undefined);
    }
  }
}
