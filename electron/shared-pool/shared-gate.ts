// This host's side of the usage gate across hosts (SPEC §1, §7; the script's side is
// gate-script.ts): the gate configuration stays here, and when the script asks this host to
// poll (its waiter heads the queue), it polls as the local pool does (the engine's pollUsage:
// fail open after 2 s) and reports the reading. The last reading is what the status shows.
import type { UsageGateReading } from "../../shared/types";
import type { Clock } from "../engine/clock";
import type { GateProbe } from "../engine/pool-types";
import { pollUsage } from "../engine/usage-gate";

/** Reports a poll: the ask it answers, the sessions counted (undefined: failed or slow), the poll interval. */
export type GateReport = (askId: string, sessions: number | undefined, pollMs: number) => void;

export class SharedGate {
  private gate: GateProbe | undefined;
  private last: UsageGateReading | undefined;
  private readonly polls = new Set<() => void>();

  constructor(
    private readonly clock: Clock,
    private readonly report: GateReport,
    private readonly changed: () => void,
  ) {}

  get configured(): boolean {
    return this.gate !== undefined;
  }

  /** A new gate (or none): polls under way are abandoned, and the old reading goes with them. */
  set(gate: GateProbe | undefined): void {
    for (const cancel of this.polls) cancel();
    this.polls.clear();
    this.gate = gate;
    this.last = undefined;
  }

  /** The script asks for a poll. An ask for a gate this host no longer has was dropped by the script already. */
  asked(askId: string): void {
    const gate = this.gate;
    if (!gate) return;
    const cancel = pollUsage(gate.probe, this.clock, (reading, sessions) => {
      this.polls.delete(cancel);
      this.last = reading;
      this.changed();
      this.report(askId, sessions, gate.pollMs);
    });
    this.polls.add(cancel);
  }

  reading(): UsageGateReading | undefined {
    return this.last && { ...this.last };
  }
}
