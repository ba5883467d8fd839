// The operations table's own promises: each row's path names exactly its parameters, each
// window channel is unique, each row's service method exists, and a row's input becomes the
// request the server reads.
import { Type } from "@sinclair/typebox";
import { expect, test } from "vitest";
import { HeadroomService } from "../../electron/service/headroom-service";
import { API_ROUTES } from "../../electron/http/api-routes";
import { INVOKE_CHANNELS, OPERATION_NAMES, keysOutsideBody, operations, pathOf, type OperationRow } from "../../shared/operations";

const rows = OPERATION_NAMES.map((name) => [name, operations[name] as OperationRow] as const);

test("each row's path has a :segment for exactly the parameters its schema names", () => {
  for (const [, row] of rows) {
    const inPath = [...row.http[1].matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]).sort();
    expect(inPath).toEqual(Object.keys(row.params?.properties ?? {}).sort());
  }
});

test("method and path are unique, each row is an HTTP route, and window channels are unique", () => {
  const routes = rows.map(([, row]) => row.http.join(" "));
  expect(new Set(routes).size).toBe(routes.length);
  for (const route of routes) expect(API_ROUTES.map((r) => `${r.method} ${r.pattern}`)).toContain(route);
  expect(new Set(INVOKE_CHANNELS).size).toBe(INVOKE_CHANNELS.length);
});

test("every row names a method the service has", () => {
  for (const [, row] of rows) expect(typeof (HeadroomService.prototype as unknown as Record<string, unknown>)[row.service]).toBe("function");
});

test("a row's input fills its path, its query, and leaves the rest for the body", () => {
  const row: OperationRow = {
    http: ["GET", "/things/:thingId/items"],
    params: Type.Object({ thingId: Type.String() }),
    query: Type.Object({ minutes: Type.Optional(Type.Integer()), kind: Type.Optional(Type.String()) }),
    returns: {},
    service: "items",
  };
  expect(pathOf(row, { thingId: "a b/c", minutes: 5, kind: "x&y", other: 1 })).toBe("/things/a%20b%2Fc/items?minutes=5&kind=x%26y");
  expect(pathOf(row, { thingId: "a" })).toBe("/things/a/items");
  expect(keysOutsideBody(row)).toEqual(["thingId", "minutes", "kind"]);
});
