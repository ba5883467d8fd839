// Errors cross the IPC boundary as data, never as thrown objects: Electron would reduce a
// thrown error to "Error invoking remote method '…': Error: …", which no person can act on.
import type { InvokeChannel, InvokeResult, Result } from "../../shared/contract";
import { ServiceError } from "../service/service-error";
import type { ChannelTable } from "./channel-table";

export function failure(error: unknown): Result<never> {
  if (error instanceof ServiceError) return { ok: false, code: error.code, message: error.message };
  const detail = error instanceof Error ? error.message : String(error);
  return { ok: false, code: "internal", message: `Headroom hit an unexpected error: ${detail}` };
}

/** Runs one channel's handler; whatever happens, the caller gets a Result. */
export function answer<C extends InvokeChannel>(
  table: ChannelTable,
  channel: C,
  request: unknown,
  log?: (message: string, detail?: unknown) => void,
): Result<InvokeResult<C>> {
  try {
    const handler: (request: unknown) => InvokeResult<C> = table[channel];
    return { ok: true, value: handler(request) };
  } catch (error) {
    // A ServiceError is an answer; anything else is our bug and worth a line in the log.
    if (!(error instanceof ServiceError)) log?.(`IPC ${channel} failed`, error);
    return failure(error);
  }
}
