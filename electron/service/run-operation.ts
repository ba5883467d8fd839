// Runs one row of the operations table against the service: checks the path parameters and
// the body with the row's schemas (the only check at the edge), merges them into the row's
// input and calls the row's service method. HTTP and IPC both come through here.
import { check, shown } from "../../shared/check";
import { operations, type OperationName, type OperationRow, type OperationService, type ResultOf } from "../../shared/operations";
import { ServiceError, valid } from "./service-error";

export interface OperationParts {
  /** Path parameters, already percent-decoded (HTTP) or picked from the request (IPC). */
  params: Record<string, unknown>;
  /** Query parameters: text over HTTP (converted here to the row's types), values over IPC. */
  query: Record<string, unknown>;
  body: unknown;
}

/** The row's answer: at once, or a promise when the service waits for something (Redis). */
export function runOperation<N extends OperationName>(
  service: OperationService,
  name: N,
  parts: OperationParts,
): ResultOf<N> | Promise<ResultOf<N>> {
  const row: OperationRow = operations[name];
  const params = row.params ? valid(check(row.params, parts.params, "path")) : {};
  const query = row.query ? valid(check(row.query, queryValues(parts.query), "query")) : noQuery(parts.query);
  const body = row.body ? valid(check(row.body, parts.body)) : {};
  // The row's schemas have just produced its input, and `OperationService` says the method
  // named by the row takes exactly that input: the one place the table meets the service.
  const input = { ...(body as object), ...(query as object), ...(params as object) };
  return Reflect.apply(service[operations[name].service], service, [input]) as ResultOf<N> | Promise<ResultOf<N>>;
}

/** A query parameter an endpoint does not take is refused like an unknown body field (SPEC §3). */
function noQuery(query: Record<string, unknown>): Record<string, never> {
  const [first] = Object.keys(query);
  if (first !== undefined) throw new ServiceError("invalid_input", `${first} is not a field of query; this endpoint takes no query parameters`);
  return {};
}

/** Query text that spells a number is that number (`"5"` → 5, `"1.5"` stays 1.5 and is refused as no integer). */
function queryValues(query: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    values[key] = typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  return values;
}

/** Splits a window request (one object) into the row's path parameters and its body. */
export function partsOfRequest(name: OperationName, request: unknown): OperationParts {
  const row: OperationRow = operations[name];
  const params = row.params ? Object.keys(row.params.properties) : [];
  const queries = row.query ? Object.keys(row.query.properties) : [];
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    if (params.length === 0 && queries.length === 0 && !row.body) return { params: {}, query: {}, body: undefined };
    throw new ServiceError("invalid_input", `request must be a JSON object (got ${shown(request)})`);
  }
  const parts: OperationParts = { params: {}, query: {}, body: {} };
  const body = parts.body as Record<string, unknown>;
  for (const [key, value] of Object.entries(request)) {
    if (params.includes(key)) parts.params[key] = value;
    else if (queries.includes(key)) parts.query[key] = value;
    else body[key] = value;
  }
  return parts;
}
