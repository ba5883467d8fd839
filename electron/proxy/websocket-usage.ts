// What a WebSocket tunnel used (SPEC §9). Codex keeps one socket open for many turns, so the
// connection is not one answer: each `response.completed` message is one, with its own usage
// and model, and so is each in-band error. A connection that closes with none of them counts
// once, as the HTTP exchange would.
import type { TokenCounts } from "../../shared/agents";
import type { LeaseOutcome } from "../../shared/types";
import { tame } from "../../shared/tame";
import { UsageTap } from "./usage-tap";

export interface TunnelAnswer {
  model: string;
  outcome: LeaseOutcome;
  tokens?: TokenCounts;
}

function completedModel(text: string): string | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (message === null || typeof message !== "object") return undefined;
  const { type, response } = message as { type?: unknown; response?: { model?: unknown } };
  if (type !== "response.completed") return undefined;
  return typeof response?.model === "string" ? response.model : "unknown";
}

export class WebSocketUsage {
  private answers = 0;

  constructor(private readonly count: (answer: TunnelAnswer) => void) {}

  /** An upstream text message; `failed` is its in-band error's outcome, when it is one. */
  message(text: string, failed: LeaseOutcome | undefined): void {
    if (failed !== undefined) return this.counted({ model: "unknown", outcome: failed });
    // Most messages are deltas: only a completion is parsed.
    if (!text.includes('"response.completed"')) return;
    const model = completedModel(text);
    if (model === undefined) return;
    const tap = new UsageTap();
    tap.feed(Buffer.from(text));
    const tokens = tap.usage;
    this.counted({ model: tame(model), outcome: "success", ...(tokens === undefined ? {} : { tokens }) });
  }

  /** The tunnel ended: a connection that answered nothing in-band still was one request. */
  closed(outcome: LeaseOutcome): void {
    if (this.answers === 0) this.counted({ model: "unknown", outcome });
  }

  private counted(answer: TunnelAnswer): void {
    this.answers++;
    this.count(answer);
  }
}
