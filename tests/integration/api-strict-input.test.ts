// SPEC §3: a typo never passes silently. A body field an endpoint does not know, at any depth,
// is 400 naming it and the fields allowed; a query parameter too; a path under one of the API's
// segments that names no endpoint is 404 `not_found` JSON (401 first without the token), never
// the window's page. The settings file on disk is still read leniently.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { rawRequest, removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";

const staticDir = tempDir("headroom-static-");
let t: TestHost;
beforeAll(async () => {
  writeFileSync(join(staticDir, "index.html"), "<!doctype html><title>Headroom</title>");
  t = await startTestHost({ staticDir });
  await t.client.setLimit("anthropic", 3);
});
afterAll(async () => {
  await t.stop();
  removeDir(t.dataDir);
  removeDir(staticDir);
});

const auth = () => ({ authorization: `Bearer ${t.host.token}`, "content-type": "application/json" });
const send = (method: string, path: string, body?: unknown) =>
  rawRequest(t.url, { method, path, headers: auth(), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

describe("an unknown field is refused by name", () => {
  test("a typo'd responseTimeoutMS is 400 naming it and the fields allowed, and changes nothing", async () => {
    const before = await t.client.provider("anthropic");
    const res = await send("PUT", "/concurrency/providers/anthropic", { responseTimeoutMS: 5000 });
    expect(res.status).toBe(400);
    expect(res.json().error.code).toBe("invalid_input");
    const message: string = res.json().error.message;
    expect(message).toContain("responseTimeoutMS is not a field of body");
    expect(message).toContain("did you mean responseTimeoutMs?");
    expect(message).toContain("the fields allowed are");
    expect(message).toContain("holdNewAtPercent");
    expect(await t.client.provider("anthropic")).toEqual(before);
  });

  test("a nested unknown field names its path", async () => {
    const res = await send("PUT", "/concurrency/providers/anthropic", { usageGate: { url: "http://127.0.0.1:9/u", pollMS: 1000 } });
    expect(res.status).toBe(400);
    expect(res.json().error.message).toContain("usageGate.pollMS is not a field of usageGate; did you mean pollMs? the fields allowed are url, pollMs, headers");
    expect((await t.client.provider("anthropic")).usageGate).toBeUndefined();
  });

  test.each([
    ["PUT", "/routes/settings", { treshold: 2 }, "treshold is not a field of body"],
    ["PUT", "/concurrency/limits/anthropic", { limit: 4, extra: true }, "extra is not a field of body; the fields allowed are limit"],
    ["POST", "/concurrency/acquire", { providerId: "anthropic", ttl: 5000 }, "ttl is not a field of body"],
    ["POST", "/concurrency/leases/abc/release", { outcome: "success", retryAfter: 1 }, "retryAfter is not a field of body"],
  ])("%s %s %j", async (method, path, body, expected) => {
    const res = await send(method, path, body);
    expect(res.status).toBe(400);
    expect(res.json().error.message).toContain(expected);
  });

  test("an unknown query parameter is refused too, and so is one where none are taken", async () => {
    const series = await send("GET", "/series?minute=5");
    expect(series.status).toBe(400);
    expect(series.json().error.message).toContain("minute is not a field of query; the fields allowed are minutes");
    const status = await send("GET", "/concurrency/status?verbose=1");
    expect(status.status).toBe(400);
    expect(status.json().error.message).toContain("verbose is not a field of query");
    expect((await send("GET", "/series?minutes=5")).status).toBe(200);
  });
});

describe("a path under the API that names no endpoint", () => {
  test.each(["/concurrency/status/", "/connections/claude/extra", "/concurrency/nothing", "/usage/x", "/presets/anthropic"])(
    "GET %s with the token is 404 not_found JSON, never the window's page",
    async (path) => {
      const res = await send("GET", path);
      expect(res.status).toBe(404);
      expect(res.headers["content-type"]).toContain("application/json");
      expect(res.json().error.code).toBe("not_found");
    },
  );

  test.each(["/concurrency/status/", "/connections"])("GET %s without the token is 401 first", async (path) => {
    const res = await rawRequest(t.url, { path });
    expect(res.status).toBe(401);
    expect(res.json().error.code).toBe("unauthorized");
  });

  test("the window's own paths still serve the page", async () => {
    const res = await rawRequest(t.url, { path: "/" });
    expect(res.status).toBe(200);
    expect(res.body).toContain("<title>Headroom</title>");
  });
});

test("a settings file with keys this Headroom does not know is still read, not moved aside", async () => {
  const dataDir = tempDir();
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, "settings.json");
  const written = {
    schemaVersion: 1,
    providers: { anthropic: { limit: 4, fromTheFuture: true, usageGate: { url: "http://127.0.0.1:9/u", pollMs: 5000, later: 1 } } },
    routes: { threshold: 2, newer: "x" },
    somethingElse: 1,
  };
  writeFileSync(file, JSON.stringify(written));
  const host = await startTestHost({ dataDir });
  try {
    expect(await host.client.provider("anthropic")).toMatchObject({ limit: 4, usageGate: { url: "http://127.0.0.1:9/u" } });
    expect((await host.client.routes()).settings.threshold).toBe(2);
    expect((await host.client.status()).notices ?? []).toEqual([]);
    await host.client.setLimit("anthropic", 5);
    expect(JSON.parse(readFileSync(file, "utf8")).providers.anthropic.limit).toBe(5);
  } finally {
    await host.stop();
    removeDir(dataDir);
  }
});
