// The IPC half of the contract, derived from the operations table: each whitelisted row
// (`window: "limit:set"`) becomes a channel that runs the row exactly as its HTTP route does.
// The request arrives as `unknown` (it crossed a process boundary); the row's schemas check it.
import type { InvokeChannel, InvokeResult } from "../../shared/contract";
import { WINDOW_OPERATIONS, operations, type OperationService } from "../../shared/operations";
import { partsOfRequest, runOperation } from "../service/run-operation";

/**
 * One handler per channel; handlers throw ServiceError on refusal (or answer with a promise that
 * rejects with one) and `answer()` makes that a Result.
 */
export type ChannelTable = { [C in InvokeChannel]: (request: unknown) => InvokeResult<C> | Promise<InvokeResult<C>> };

export function createChannelTable(service: OperationService): ChannelTable {
  const entries = WINDOW_OPERATIONS.map((name) => [
    operations[name].window,
    (request: unknown) => runOperation(service, name, partsOfRequest(name, request)),
  ]);
  // Each entry is keyed by its row's channel and runs that row: the shape ChannelTable names.
  return Object.fromEntries(entries) as ChannelTable;
}
