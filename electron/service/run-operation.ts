// Runs one row of the operations table against the service: checks the path parameters and
// the body with the row's schemas (the only check at the edge), merges them into the row's
// input and calls the row's service method. HTTP and IPC both come through here.
import { check, shown } from "../../shared/check";
import { operations, type OperationName, type OperationService, type ResultOf } from "../../shared/operations";
import { ServiceError, valid } from "./service-error";

export interface OperationParts {
  /** Path parameters, already percent-decoded (HTTP) or picked from the request (IPC). */
  params: Record<string, unknown>;
  body: unknown;
}

export function runOperation<N extends OperationName>(service: OperationService, name: N, parts: OperationParts): ResultOf<N> {
  const row = operations[name];
  const params = "params" in row ? valid(check(row.params, parts.params, "path")) : {};
  const body = "body" in row ? valid(check(row.body, parts.body)) : {};
  // The row's schemas have just produced its input, and `OperationService` says the method
  // named by the row takes exactly that input: the one place the table meets the service.
  const method = service[row.service] as unknown as (this: OperationService, input: object) => ResultOf<N>;
  return method.call(service, { ...(body as object), ...params });
}

/** Splits a window request (one object) into the row's path parameters and its body. */
export function partsOfRequest(name: OperationName, request: unknown): OperationParts {
  const row = operations[name];
  const names = "params" in row ? Object.keys(row.params.properties) : [];
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    if (names.length === 0 && !("body" in row)) return { params: {}, body: undefined };
    throw new ServiceError("invalid_input", `request must be a JSON object (got ${shown(request)})`);
  }
  const params: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request)) {
    if (names.includes(key)) params[key] = value;
    else body[key] = value;
  }
  return { params, body };
}
