// Every input that crosses a process boundary is checked here, once, for every transport.
// Messages name the field, what is allowed and what was received, so a person can act.
import type {
  BreakerSettings,
  LeaseOutcome,
  RouteKey,
  RouteOutcome,
  UsageGateConfig,
} from "./types";
import { LIMITS } from "./limits";

export type Checked<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

export const PROVIDER_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const TOKEN_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

class InvalidInput extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });

function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") {
    const cut = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return JSON.stringify(cut);
  }
  try {
    const text = JSON.stringify(value);
    return text.length > 60 ? `${text.slice(0, 60)}…` : text;
  } catch {
    return String(value);
  }
}

function attempt<T>(run: () => T): Checked<T> {
  try {
    return ok(run());
  } catch (error) {
    if (error instanceof InvalidInput) return { ok: false, field: error.field, message: error.message };
    throw error;
  }
}

function objectBody(body: unknown, name = "body"): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new InvalidInput(name, `${name} must be a JSON object (got ${shown(body)})`);
  }
  return body as Record<string, unknown>;
}

function integer(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidInput(field, `${field} must be an integer from ${min} to ${max} (got ${shown(value)})`);
  }
  return value;
}

function optionalInteger(value: unknown, field: string, min: number, max: number): number | undefined {
  return value === undefined ? undefined : integer(value, field, min, max);
}

function text(value: unknown, field: string, max = 200): string {
  if (typeof value !== "string" || value.trim().length === 0 || value.length > max) {
    throw new InvalidInput(field, `${field} must be a non-empty string of at most ${max} characters (got ${shown(value)})`);
  }
  return value;
}

function optionalText(value: unknown, field: string, max = 200): string | undefined {
  return value === undefined ? undefined : text(value, field, max);
}

function tokenId(value: unknown, field: string): string {
  if (typeof value !== "string" || !TOKEN_ID_PATTERN.test(value)) {
    throw new InvalidInput(
      field,
      `${field} must be 1 to 128 letters, digits or . _ : - (got ${shown(value)})`,
    );
  }
  return value;
}

function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw new InvalidInput(field, `${field} must be one of ${allowed.join(", ")} (got ${shown(value)})`);
  }
  return value as T;
}

function httpUrl(value: unknown, field: string): string {
  if (typeof value === "string" && value.length <= 2048) {
    try {
      const url = new URL(value);
      if ((url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password) {
        // Stored as the URL parser spells it ("HTTP://X/" → "http://x"), so settings and
        // the JSON schema that guards their file always agree on what was accepted.
        return url.href.replace(/\/+$/, "");
      }
    } catch {
      // falls through to the message below
    }
  }
  throw new InvalidInput(field, `${field} must be an http:// or https:// URL without credentials (got ${shown(value)})`);
}

function headerMap(value: unknown, field: string): Record<string, string> {
  const record = objectBody(value, field);
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(record)) {
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name) || typeof v !== "string" || /[\r\n]/.test(v)) {
      throw new InvalidInput(`${field}.${name}`, `${field} must map header names to single-line strings (got ${shown({ [name]: v })})`);
    }
    out[name] = v;
  }
  return out;
}

export function checkProviderId(value: unknown, field = "providerId"): Checked<string> {
  return attempt(() => {
    if (typeof value !== "string" || !PROVIDER_ID_PATTERN.test(value)) {
      throw new InvalidInput(
        field,
        `${field} must be 1 to 64 lowercase letters, digits, '.', '_' or '-', starting with a letter or digit (got ${shown(value)})`,
      );
    }
    return value;
  });
}

export function checkLeaseId(value: unknown): Checked<string> {
  return attempt(() => tokenId(value, "leaseId"));
}

export const checkLimit = (value: unknown): Checked<number> =>
  attempt(() => integer(value, "limit", LIMITS.limit.min, LIMITS.limit.max));

export const checkCooldownMs = (value: unknown): Checked<number> =>
  attempt(() => integer(value, "cooldownMs", LIMITS.cooldownMs.min, LIMITS.cooldownMs.max));

export const checkLimitBody = (body: unknown): Checked<{ limit: number }> =>
  attempt(() => ({ limit: integer(objectBody(body).limit, "limit", LIMITS.limit.min, LIMITS.limit.max) }));

export const checkCooldownBody = (body: unknown): Checked<{ cooldownMs: number }> =>
  attempt(() => ({
    cooldownMs: integer(objectBody(body).cooldownMs, "cooldownMs", LIMITS.cooldownMs.min, LIMITS.cooldownMs.max),
  }));

export interface ProviderConfigPatch {
  /** null clears the field; undefined leaves it alone. */
  upstream?: string | null;
  usageGate?: UsageGateConfig | null;
}

export const checkProviderConfigBody = (body: unknown): Checked<ProviderConfigPatch> =>
  attempt(() => providerConfigPatch(objectBody(body)));

function providerConfigPatch(b: Record<string, unknown>): ProviderConfigPatch {
  const patch: ProviderConfigPatch = {};
  if (b.upstream !== undefined) patch.upstream = b.upstream === null ? null : httpUrl(b.upstream, "upstream");
  if (b.usageGate !== undefined) {
    if (b.usageGate === null) patch.usageGate = null;
    else {
      const g = objectBody(b.usageGate, "usageGate");
      patch.usageGate = {
        url: httpUrl(g.url, "usageGate.url"),
        pollMs:
          optionalInteger(g.pollMs, "usageGate.pollMs", LIMITS.pollMs.min, LIMITS.pollMs.max) ??
          LIMITS.pollMs.default,
        ...(g.headers === undefined ? {} : { headers: headerMap(g.headers, "usageGate.headers") }),
      };
    }
  }
  return patch;
}

export interface AcquireRequest {
  providerId: string;
  agentId?: string;
  waiterId?: string;
  timeoutMs?: number;
  /** How long the lease lives without a heartbeat (SPEC §3); the host's default when absent. */
  ttlMs?: number;
}

export const checkAcquireBody = (body: unknown): Checked<AcquireRequest> =>
  attempt(() => {
    const b = objectBody(body);
    const providerId = checkProviderId(b.providerId);
    if (!providerId.ok) throw new InvalidInput(providerId.field, providerId.message);
    const agentId = optionalText(b.agentId, "agentId");
    const waiterId = b.waiterId === undefined ? undefined : tokenId(b.waiterId, "waiterId");
    const timeoutMs = optionalInteger(b.timeoutMs, "timeoutMs", 0, LIMITS.timeoutMs.max);
    const ttlMs = optionalInteger(b.ttlMs, "ttlMs", LIMITS.leaseTtlMs.min, LIMITS.leaseTtlMs.max);
    return {
      providerId: providerId.value,
      ...(agentId === undefined ? {} : { agentId }),
      ...(waiterId === undefined ? {} : { waiterId }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(ttlMs === undefined ? {} : { ttlMs }),
    };
  });

export interface ReleaseRequest {
  outcome: LeaseOutcome;
  retryAfterMs?: number;
}

export const LEASE_OUTCOMES: readonly LeaseOutcome[] = ["success", "failure", "rate_limited"];
export const ROUTE_OUTCOMES: readonly RouteOutcome[] = ["success", "failure", "neutral"];

export const checkReleaseBody = (body: unknown): Checked<ReleaseRequest> =>
  attempt(() => {
    const b = objectBody(body);
    const outcome = oneOf(b.outcome, "outcome", LEASE_OUTCOMES);
    const retryAfterMs = optionalInteger(b.retryAfterMs, "retryAfterMs", 0, LIMITS.retryAfterMs.max);
    return { outcome, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  });

function routeKey(b: Record<string, unknown>): RouteKey {
  return {
    targetId: text(b.targetId, "targetId"),
    runtimeId: text(b.runtimeId, "runtimeId"),
    modelId: text(b.modelId, "modelId"),
  };
}

export const checkRouteKeyBody = (body: unknown): Checked<RouteKey> => attempt(() => routeKey(objectBody(body)));

export const checkRouteRunBody = (body: unknown): Checked<RouteKey & { runId: string }> =>
  attempt(() => {
    const b = objectBody(body);
    return { ...routeKey(b), runId: text(b.runId, "runId") };
  });

export const checkRouteOutcomeBody = (
  body: unknown,
): Checked<RouteKey & { runId: string; outcome: RouteOutcome; reason?: string }> =>
  attempt(() => {
    const b = objectBody(body);
    const reason = optionalText(b.reason, "reason", 500);
    return {
      ...routeKey(b),
      runId: text(b.runId, "runId"),
      outcome: oneOf(b.outcome, "outcome", ROUTE_OUTCOMES),
      ...(reason === undefined ? {} : { reason }),
    };
  });

export const checkBreakerSettingsBody = (body: unknown): Checked<Partial<BreakerSettings>> =>
  attempt(() => {
    const b = objectBody(body);
    const threshold = optionalInteger(b.threshold, "threshold", LIMITS.threshold.min, LIMITS.threshold.max);
    const cooldownMs = optionalInteger(
      b.cooldownMs,
      "cooldownMs",
      LIMITS.breakerCooldownMs.min,
      LIMITS.breakerCooldownMs.max,
    );
    if (threshold === undefined && cooldownMs === undefined) {
      throw new InvalidInput("body", "body must set threshold, cooldownMs or both");
    }
    return {
      ...(threshold === undefined ? {} : { threshold }),
      ...(cooldownMs === undefined ? {} : { cooldownMs }),
    };
  });

// ── the window's IPC requests (shared/contract.ts InvokeMap): one object per call ──────────

function providerIdIn(request: Record<string, unknown>): string {
  const id = checkProviderId(request.providerId);
  if (!id.ok) throw new InvalidInput(id.field, id.message);
  return id.value;
}

export const checkProviderRequest = (request: unknown): Checked<{ providerId: string }> =>
  attempt(() => ({ providerId: providerIdIn(objectBody(request, "request")) }));

export const checkLimitRequest = (request: unknown): Checked<{ providerId: string; limit: number }> =>
  attempt(() => {
    const r = objectBody(request, "request");
    return { providerId: providerIdIn(r), limit: integer(r.limit, "limit", LIMITS.limit.min, LIMITS.limit.max) };
  });

export const checkCooldownRequest = (request: unknown): Checked<{ providerId: string; cooldownMs: number }> =>
  attempt(() => {
    const r = objectBody(request, "request");
    return {
      providerId: providerIdIn(r),
      cooldownMs: integer(r.cooldownMs, "cooldownMs", LIMITS.cooldownMs.min, LIMITS.cooldownMs.max),
    };
  });

export const checkProviderConfigRequest = (
  request: unknown,
): Checked<{ providerId: string; patch: ProviderConfigPatch }> =>
  attempt(() => {
    const r = objectBody(request, "request");
    return { providerId: providerIdIn(r), patch: providerConfigPatch(objectBody(r.patch, "patch")) };
  });

export const checkLeaseRequest = (request: unknown): Checked<{ leaseId: string }> =>
  attempt(() => ({ leaseId: tokenId(objectBody(request, "request").leaseId, "leaseId") }));

/** `GET /series?minutes=N`: the number arrives as query text (absent: the default 5). */
export const checkSeriesMinutes = (raw: string | null | undefined): Checked<number> =>
  attempt(() => {
    const { min, max, default: fallback } = LIMITS.seriesMinutes;
    if (raw === null || raw === undefined) return fallback;
    return integer(/^\d{1,6}$/.test(raw) ? Number(raw) : raw, "minutes", min, max);
  });

export const checkSeriesRequest = (request: unknown): Checked<{ minutes: number }> =>
  attempt(() => {
    const { min, max, default: fallback } = LIMITS.seriesMinutes;
    const minutes = optionalInteger(objectBody(request, "request").minutes, "minutes", min, max);
    return { minutes: minutes ?? fallback };
  });
