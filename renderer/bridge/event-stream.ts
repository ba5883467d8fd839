// One streaming fetch of GET /events carries every pushed topic. When the host stops or
// restarts, the stream ends or fails; it is opened again with growing delays so a restarted
// host is picked up within seconds without hammering one that is gone for good.
import type { ConnectionState, PushTopic } from "../../shared/contract";
import { PUSH_TOPICS } from "../../shared/contract";
import { createSseParser } from "./sse-parser";

/** Retry delays after a lost stream; the last one repeats. */
const RECONNECT_DELAYS_MS = [200, 400, 800, 1_600, 3_000] as const;

export interface EventStreamOptions {
  url: string;
  token: string;
  fetch: typeof fetch;
  onSnapshot: (topic: PushTopic, snapshot: unknown) => void;
  onState: (state: ConnectionState) => void;
}

const isTopic = (event: string): event is PushTopic => (PUSH_TOPICS as readonly string[]).includes(event);

export function openEventStream(options: EventStreamOptions): { close(): void } {
  let closed = false;
  let failures = 0;
  let controller: AbortController | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const parser = () =>
    createSseParser(({ event, data }) => {
      if (isTopic(event)) options.onSnapshot(event, JSON.parse(data));
    });

  async function connect(): Promise<void> {
    controller = new AbortController();
    const response = await options.fetch(options.url, {
      headers: { authorization: `Bearer ${options.token}`, accept: "text/event-stream" },
      signal: controller.signal,
    });
    if (response.status === 401) {
      closed = true;
      options.onState("unauthorized");
      return;
    }
    if (!response.ok || !response.body) throw new Error(`GET /events answered ${response.status}`);
    failures = 0;
    options.onState("live");
    const sse = parser();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      sse.push(value);
    }
  }

  function run(): void {
    connect()
      .catch(() => undefined)
      .finally(() => {
        if (closed) return;
        options.onState("reconnecting");
        const delay = RECONNECT_DELAYS_MS[Math.min(failures, RECONNECT_DELAYS_MS.length - 1)];
        failures += 1;
        retry = setTimeout(run, delay);
      });
  }

  options.onState("connecting");
  run();
  return {
    close() {
      closed = true;
      clearTimeout(retry);
      controller?.abort();
    },
  };
}
