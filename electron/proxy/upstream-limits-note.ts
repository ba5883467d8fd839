// Every upstream answer's rate-limit headers go to the provider's status (SPEC §6); the
// service reads them, the proxy only hands them over.
import type { IncomingMessage } from "node:http";
import type { HeadroomService } from "../service/headroom-service";

export function noteUpstreamLimits(service: HeadroomService, providerId: string, incoming: IncomingMessage): void {
  service.noteUpstreamLimits(providerId, incoming.headers, incoming.statusCode ?? 0);
}
