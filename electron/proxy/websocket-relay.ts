// One direction of a tunnelled WebSocket (SPEC §6 "Bounded whatever clients send"): every
// message goes on unchanged, and the sending side stops being read while more than 1 MiB
// waits unsent to the other, so a peer that stops reading never grows the host.
import type WebSocket from "ws";
import type { RawData } from "ws";

const MAX_UNSENT_BYTES = 1024 * 1024;

/** Sends what `from` receives on to `to`; `seen` looks at each message first. */
export function relayMessages(from: WebSocket, to: WebSocket, seen: (data: RawData, isBinary: boolean) => void): void {
  // Called as each message leaves for the kernel: once the backlog is under the mark, read on.
  const sent = () => {
    if (from.isPaused && to.bufferedAmount <= MAX_UNSENT_BYTES) from.resume();
  };
  from.on("message", (data, isBinary) => {
    seen(data, isBinary);
    to.send(data, { binary: isBinary }, sent);
    if (to.bufferedAmount > MAX_UNSENT_BYTES) from.pause();
  });
}
