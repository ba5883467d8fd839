// One pretend coding agent: it thinks a little, sends a streamed request through the proxy
// exactly as Claude Code would (base URL + API key), reads the answer to the end, and backs
// off as its SDK would when told to (retry-after on 429 and 503).
import { setTimeout as sleep } from "node:timers/promises";

export interface AgentOptions {
  /** Sent as x-headroom-agent: how the agents list names it. */
  name: string;
  userAgent: string;
  /** The provider's base on the proxy, e.g. http://127.0.0.1:7412/demo-anthropic. */
  baseUrl: string;
  model: string;
  signal: AbortSignal;
  /** Think time between requests, picked uniformly in this range. */
  thinkMs: [number, number];
}

export interface AgentTally {
  ok: number;
  rateLimited: number;
  refused: number;
  failed: number;
}

async function once(options: AgentOptions, tally: AgentTally): Promise<void> {
  const response = await fetch(`${options.baseUrl}/v1/messages`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-api-key": "demo-key-not-a-secret",
      "anthropic-version": "2023-06-01",
      "x-headroom-agent": options.name,
      "user-agent": options.userAgent,
    },
    body: JSON.stringify({
      model: options.model,
      max_tokens: 256,
      stream: true,
      messages: [{ role: "user", content: "Refactor the parser." }],
    }),
    signal: options.signal,
  });
  await response.arrayBuffer(); // read the stream to its end, as an agent does
  const retryAfter = Number(response.headers.get("retry-after") ?? 1);
  const backOff = () => sleep(Math.max(1, retryAfter) * 1000, undefined, { signal: options.signal });
  if (response.ok) tally.ok++;
  else if (response.status === 429) {
    tally.rateLimited++;
    await backOff();
  } else if (response.status === 503) {
    tally.refused++;
    await backOff();
  } else tally.failed++;
}

/** Runs until the signal aborts; never throws. */
export async function runAgent(options: AgentOptions, tally: AgentTally): Promise<void> {
  const [min, max] = options.thinkMs;
  while (!options.signal.aborted) {
    try {
      await sleep(min + Math.random() * (max - min), undefined, { signal: options.signal });
      await once(options, tally);
    } catch {
      if (options.signal.aborted) return;
      tally.failed++;
    }
  }
}
