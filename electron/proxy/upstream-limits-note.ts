// Every upstream answer's rate-limit headers go to the provider's status (SPEC §6); only a
// successful answer may pause early, a 429's readings are left to the 429 rules.
import type { IncomingMessage } from "node:http";
import { parseUpstreamLimits } from "../engine/upstream-limits";
import type { HeadroomService } from "../service/headroom-service";

export function noteUpstreamLimits(service: HeadroomService, providerId: string, incoming: IncomingMessage): void {
  const reading = parseUpstreamLimits(incoming.headers, Date.now());
  if (!reading) return;
  const status = incoming.statusCode ?? 0;
  service.noteUpstreamLimits(providerId, reading, status >= 200 && status < 300);
}
