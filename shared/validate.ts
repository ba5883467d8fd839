// Named checks over the schemas (shared/schemas.ts) for code that validates one value by hand:
// the window's fields, the CLI's arguments, the engine's own invariants. Transports do not use
// these: the operations table runs each row's schemas once (electron/service/run-operation.ts).
import { check, type Checked } from "./check";
import {
  AcquireBody,
  BreakerSettingsPatch,
  CooldownMs,
  Limit,
  ProviderConfigPatch,
  ProviderId,
  RouteKey,
} from "./schemas";

export type { Checked } from "./check";
export { PROVIDER_ID_PATTERN } from "./schemas";
export type { AcquireRequest } from "./schemas";

export const checkProviderId = (value: unknown, field = "providerId"): Checked<string> => check(ProviderId, value, field);
export const checkLimit = (value: unknown): Checked<number> => check(Limit, value, "limit");
export const checkCooldownMs = (value: unknown): Checked<number> => check(CooldownMs, value, "cooldownMs");
export const checkProviderConfigBody = (body: unknown) => check(ProviderConfigPatch, body);
export const checkBreakerSettingsBody = (body: unknown) => check(BreakerSettingsPatch, body);
export const checkRouteKeyBody = (body: unknown) => check(RouteKey, body);
export const checkAcquireBody = (body: unknown) => check(AcquireBody, body);
