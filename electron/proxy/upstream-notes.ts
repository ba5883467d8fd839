// What an upstream's answer tells the service besides the verdict: its rate-limit headers
// (SPEC §6), and whether the request found a working upstream at all (SPEC §4
// `upstreamFailures`: none set, not reachable, a loop), in the few words the status shows.
// Only the proxy sees these; the service keeps and ages them.
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { HeadroomService } from "../service/headroom-service";
import type { ForwardEnd } from "./forward";

export const NO_UPSTREAM = "no upstream set";
/** The proxy that saw its own id answered; from here it may be this one or another Headroom. */
const LOOP = "loop: the upstream leads back to a Headroom proxy";

/** An exchange that ended without reaching its upstream. */
export function noteUnreached(service: HeadroomService, providerId: string, end: ForwardEnd): void {
  if (end.kind === "upstream_error" && end.unreached !== undefined) service.noteUpstreamFailure(providerId, end.unreached);
}

/** Every upstream answer's head, as it arrives. */
export function noteAnswerHead(service: HeadroomService, providerId: string, incoming: IncomingMessage): void {
  service.noteUpstreamLimits(providerId, incoming.headers, incoming.statusCode ?? 0);
  noteIfLoop(service, providerId, incoming.statusCode, incoming.headers);
}

/** A refusal by a Headroom proxy downstream that found the request had come round to it. */
export function noteIfLoop(service: HeadroomService, providerId: string, status: number | undefined, headers: IncomingHttpHeaders): void {
  if (status === 508 && headers["x-headroom-error"] === "loop_detected") service.noteUpstreamFailure(providerId, LOOP);
}
