// SPEC §8 "Paid extra usage (Anthropic)": what a reading means under this host's `overage`
// setting, and since when answers say requests are paid from extra usage. One per provider,
// local (window-rules.ts) or shared (shared-windows.ts): `overage` is each host's own setting,
// judged on the answers its own proxy sees.
import type { HistoryKind } from "../../shared/types";
import type { Clock } from "./clock";
import * as say from "./window-messages";
import type { WindowReading } from "./window-readings";

export class OverageWatch {
  private mode: "allow" | "stop" = "allow";
  /** Since when answers say requests are paid from extra usage (with `allow`). */
  private since: number | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly providerId: string,
    private readonly event: (kind: HistoryKind, message: string) => void,
  ) {}

  /** With `stop`, paid extra usage is a used-up window: the one that ran out. */
  stoppedBy(reading: WindowReading): { name: string; resetsAt?: number } | undefined {
    return this.mode === "stop" ? reading.overage : undefined;
  }

  /** After a reading: paid extra usage began (said once, until the plan serves again), or ended. */
  noted(reading: WindowReading, label: (name: string) => string): void {
    const { overage } = reading;
    if (overage && this.mode === "allow") {
      if (this.since !== undefined) return;
      const now = this.clock.now();
      this.since = now;
      this.event("overage_started", say.overageMessage(this.providerId, label(overage.name), overage.resetsAt, now));
    } else if (reading.planServes) this.since = undefined;
  }

  setMode(mode: "allow" | "stop" | undefined): void {
    this.mode = mode ?? "allow";
    if (this.mode === "stop") this.since = undefined;
  }

  /** The status's `overage` while answers say requests are paid from extra usage. */
  fields(): { overage?: { since: number } } {
    return this.since === undefined ? {} : { overage: { since: this.since } };
  }
}
