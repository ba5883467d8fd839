// The IPC half of the contract: each window → main channel checks its request with the shared
// validators and calls the one service, exactly as the HTTP routes do. No rule lives here.
import type { HostInfo, InvokeChannel, InvokeMap } from "../../shared/contract";
import {
  checkBreakerSettingsBody,
  checkCooldownRequest,
  checkLeaseRequest,
  checkLimitRequest,
  checkProviderConfigRequest,
  checkProviderRequest,
  checkRouteKeyBody,
  checkSeriesRequest,
} from "../../shared/validate";
import type { HeadroomService } from "../service/headroom-service";
import { valid } from "../service/service-error";

/**
 * One handler per channel. The request arrives as `unknown` (it crossed a process boundary);
 * channels whose request is `void` ignore it, since nothing of it is read. Handlers throw
 * ServiceError on refusal; `answer()` turns that into a Result.
 */
export type ChannelTable = { [C in InvokeChannel]: (request: unknown) => InvokeMap[C]["response"] };

export function createChannelTable(service: HeadroomService, hostInfo: () => HostInfo): ChannelTable {
  const providerId = (request: unknown) => valid(checkProviderRequest(request)).providerId;
  return {
    "status:get": () => service.status(),
    "limit:set": (request) => {
      const { providerId: id, limit } = valid(checkLimitRequest(request));
      return service.setLimit(id, limit);
    },
    "cooldown:set": (request) => {
      const { providerId: id, cooldownMs } = valid(checkCooldownRequest(request));
      return service.setCooldown(id, cooldownMs);
    },
    "provider:get": (request) => service.providerConfig(providerId(request)),
    "provider:configure": (request) => {
      const { providerId: id, patch } = valid(checkProviderConfigRequest(request));
      return service.setProviderConfig(id, patch);
    },
    "provider:remove": (request) => service.removeProvider(providerId(request)),
    "provider:resume": (request) => service.resume(providerId(request)),
    "notice:dismiss": (request) => service.dismissNotice(providerId(request)),
    "leases:get": (request) => service.leases(providerId(request)),
    "lease:release": (request) => service.releaseByHand(valid(checkLeaseRequest(request)).leaseId),
    "routes:get": () => service.routes(),
    "routes:settings": (request) => service.setRouteSettings(valid(checkBreakerSettingsBody(request))),
    "route:reset": (request) => service.routeReset(valid(checkRouteKeyBody(request))),
    "history:get": () => service.historyEvents(),
    "host:info": () => hostInfo(),
    "series:get": (request) => service.series(valid(checkSeriesRequest(request)).minutes),
  };
}
