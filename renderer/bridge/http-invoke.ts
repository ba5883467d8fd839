// Each window → host message of the contract, as the one typed HTTP client calls it.
import type { ApiClient } from "../../shared/api-client";
import type { InvokeChannel, InvokeMap } from "../../shared/contract";

type Handlers = {
  [C in InvokeChannel]: (client: ApiClient, request: InvokeMap[C]["request"]) => Promise<InvokeMap[C]["response"]>;
};

export const HTTP_HANDLERS: Handlers = {
  "status:get": (client) => client.status(),
  "limit:set": (client, { providerId, limit }) => client.setLimit(providerId, limit),
  "cooldown:set": (client, { providerId, cooldownMs }) => client.setCooldown(providerId, cooldownMs),
  "provider:get": (client, { providerId }) => client.provider(providerId),
  "provider:configure": (client, { providerId, patch }) => client.setProvider(providerId, patch),
  "provider:remove": (client, { providerId }) => client.removeProvider(providerId),
  "provider:resume": (client, { providerId }) => client.resume(providerId),
  "notice:dismiss": (client, { providerId }) => client.dismissNotice(providerId),
  "leases:get": (client, { providerId }) => client.leases(providerId),
  "lease:release": (client, { leaseId }) => client.releaseByHand(leaseId),
  "routes:get": (client) => client.routes(),
  "routes:settings": (client, settings) => client.setRouteSettings(settings),
  "route:reset": (client, { targetId, runtimeId, modelId }) => client.routeReset({ targetId, runtimeId, modelId }),
  "history:get": (client) => client.history(),
  "host:info": (client) => client.hostInfo(),
  "series:get": (client, { minutes }) => client.series(minutes),
};
