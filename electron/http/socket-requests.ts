import type { Socket } from "node:net";

// How many requests each keep-alive socket has carried: a later request proves the client read
// the answers before it.
const seen = new WeakMap<Socket, number>();

export function noteRequest(socket: Socket): void {
  seen.set(socket, (seen.get(socket) ?? 0) + 1);
}

export function requestsOn(socket: Socket): number {
  return seen.get(socket) ?? 0;
}
