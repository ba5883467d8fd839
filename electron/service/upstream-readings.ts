// What the proxy learns from a provider's upstream and hands to the service: its rate-limit
// headers (SPEC §6), its plan windows (SPEC §8) and the requests it could not serve at all
// (SPEC §4 `upstreamFailures`). Each lands on the provider's pool or record, so the status
// shows it; a provider removed meanwhile is skipped.
import { tame } from "../../shared/tame";
import type { Clock } from "../engine/clock";
import { parseUpstreamLimits, type ResponseHeaders } from "../engine/upstream-limits";
import type { WindowReading } from "../engine/window-readings";
import { reportedSightings } from "../engine/reported-windows";
import type { ReportedWindow } from "../../shared/schemas";
import { SETTINGS } from "../../shared/provider-settings";
import type { StopKind } from "../../shared/types";
import type { ProviderRegistry } from "./provider-registry";

/** What the proxy answers at once instead of forwarding, and what stopped it (SPEC §8 `stoppedBy`). */
export interface ProxyRefusal {
  retryAfterS: number;
  message: string;
  kind: StopKind;
}

export class UpstreamReadings {
  constructor(
    private readonly providers: ProviderRegistry,
    private readonly clock: Clock,
  ) {}

  /** Only a 2xx may pause early; a 429's readings are left to the 429 rules. */
  limits(providerId: string, headers: ResponseHeaders, status: number): void {
    const reading = parseUpstreamLimits(headers, this.clock.now());
    if (reading) this.providers.get(providerId)?.pool.noteUpstreamLimits(reading, status >= 200 && status < 300);
  }

  /** A used-up window pauses the provider. */
  windows(providerId: string, reading: WindowReading): void {
    this.providers.get(providerId)?.pool.windows.note(reading);
  }

  /** SPEC §10: windows a client posted; only what is newer than the kept readings is taken. Throws for an unknown provider. */
  reported(providerId: string, posted: readonly ReportedWindow[]): void {
    const { pool } = this.providers.require(providerId);
    const sightings = reportedSightings(posted, pool.windows.views(), this.clock.now());
    if (sightings.length > 0) pool.windows.report(sightings);
  }

  /**
   * While a used-up window pauses the provider: what the proxy answers at once (SPEC §8). With
   * `waitable`, none while the reset is within the provider's waitForResetMs: the request
   * waits in the queue for it instead ("Waiting through a near reset").
   */
  windowRefusal(providerId: string, waitable: boolean): ProxyRefusal | undefined {
    const provider = this.providers.get(providerId);
    const refusal = provider?.pool.windows.refusal(this.clock.now());
    if (!provider || !refusal) return undefined;
    const nearMs = provider.options.waitForResetMs ?? SETTINGS.waitForResetMs.implied;
    if (waitable && refusal.retryAfterS * 1000 <= nearMs) return undefined;
    return { ...refusal, kind: "window" };
  }

  /** `error` names the host it could not reach, which came from the settings, not the wire; tamed all the same. */
  failure(providerId: string, error: string): void {
    if (this.providers.has(providerId)) this.providers.upstreamFailures.note(providerId, tame(error));
  }
}
