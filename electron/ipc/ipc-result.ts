// Errors cross the IPC boundary as data, never as thrown objects: Electron would reduce a
// thrown error to "Error invoking remote method '…': Error: …", which no person can act on.
import type { InvokeChannel, InvokeResult, Result } from "../../shared/contract";
import { ServiceError } from "../service/service-error";
import type { ChannelTable } from "./channel-table";

function failure(error: unknown): Result<never> {
  if (error instanceof ServiceError) return { ok: false, code: error.code, message: error.message };
  const detail = error instanceof Error ? error.message : String(error);
  return { ok: false, code: "internal", message: `Headroom hit an unexpected error: ${detail}` };
}

/**
 * Runs one channel's handler; whatever happens, the caller gets a Result: at once, or as a
 * promise when the handler answers with one (Electron's `handle` awaits it).
 */
export function answer<C extends InvokeChannel>(
  table: ChannelTable,
  channel: C,
  request: unknown,
  log?: (message: string, detail?: unknown) => void,
): Result<InvokeResult<C>> | Promise<Result<InvokeResult<C>>> {
  const refused = (error: unknown): Result<never> => {
    // A ServiceError is an answer; anything else is our bug and worth a line in the log.
    if (!(error instanceof ServiceError)) log?.(`IPC ${channel} failed`, error);
    return failure(error);
  };
  try {
    const handler: (request: unknown) => InvokeResult<C> | Promise<InvokeResult<C>> = table[channel];
    const value = handler(request);
    if (value instanceof Promise) return value.then((settled) => ({ ok: true, value: settled }), refused);
    return { ok: true, value };
  } catch (error) {
    return refused(error);
  }
}
