// SPEC §3: no input, however odd, gets a 500; no foreign Host or Origin drives the API.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { rawRequest, removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";

let t: TestHost;
const staticDir = tempDir("headroom-static-");
const elsewhere = tempDir("headroom-secret-");
beforeAll(async () => {
  mkdirSync(join(staticDir, "assets"));
  writeFileSync(join(elsewhere, "secret.txt"), "the user's secret");
  mkdirSync(join(elsewhere, "folder"));
  writeFileSync(join(elsewhere, "folder", "inner.js"), "the user's other secret");
  // Links planted in the window's folder, pointing out of it; one link inside it stays fine.
  symlinkSync(join(elsewhere, "secret.txt"), join(staticDir, "assets", "leak.txt"));
  symlinkSync(join(elsewhere, "folder"), join(staticDir, "linked"));
  symlinkSync(join(staticDir, "assets", "app.js"), join(staticDir, "assets", "alias.js"));
  writeFileSync(join(staticDir, "index.html"), "<!doctype html><title>Headroom</title>");
  writeFileSync(join(staticDir, "assets", "app.js"), "export {};");
  t = await startTestHost({ staticDir });
  await t.client.setLimit("anthropic", 3);
});
afterAll(async () => {
  await t.stop();
  removeDir(t.dataDir);
  removeDir(staticDir);
  removeDir(elsewhere);
});

test("a link planted in the window's folder hands out nothing from outside it", async () => {
  for (const path of ["/assets/leak.txt", "/linked/inner.js"]) {
    const res = await rawRequest(t.url, { path });
    expect(res.body).not.toContain("secret");
    expect(res.body).toContain("<title>Headroom</title>"); // the page, as for any unknown path
  }
  const inside = await rawRequest(t.url, { path: "/assets/alias.js" });
  expect(inside.body).toBe("export {};");
});

const auth = () => ({ authorization: `Bearer ${t.host.token}` });

/** Sends bytes as they are (no client library would send a broken request line). */
function rawSocket(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(text));
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

const errorOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4)) as { error: { code: string; message: string } };

describe("bad input answers 400 with the JSON error body", () => {
  test.each(["/%ZZ", "/assets/%E0%A4%A", "/concurrency/limits/%ZZ"])("GET %s without a token", async (path) => {
    const res = await rawRequest(t.url, { path });
    expect(res.status).toBe(400);
    expect(res.json().error).toMatchObject({ code: "invalid_input", message: expect.stringContaining("percent-escape") });
  });

  test("a broken request line", async () => {
    const raw = await rawSocket(t.host.port, "GET http://[/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(errorOf(raw).error.code).toBe("invalid_input");
  });

  test("bytes that are not HTTP at all", async () => {
    const raw = await rawSocket(t.host.port, "\u0000\u0001 nonsense\r\n\r\n");
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(errorOf(raw).error.code).toBe("invalid_input");
  });

  test("JSON nested 20,000 deep", async () => {
    const body = `{"limit":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    const res = await rawRequest(t.url, { method: "PUT", path: "/concurrency/limits/anthropic", headers: { ...auth(), "content-type": "application/json" }, body });
    expect(res.status).toBe(400);
    expect(res.json().error).toMatchObject({ code: "invalid_input", message: expect.stringContaining("64") });
  });

  test("JSON nested 64 deep is still read", async () => {
    const body = `{"limit":4,"x":${"[".repeat(63)}${"]".repeat(63)}}`;
    const res = await rawRequest(t.url, { method: "PUT", path: "/concurrency/limits/anthropic", headers: { ...auth(), "content-type": "application/json" }, body });
    expect(res.json().error?.message ?? "").not.toContain("64 levels");
  });
});

describe("Host and Origin", () => {
  test.each(["[::1].evil.com", "[::1]:80.evil.com", "127.0.0.1.evil.com", "localhost.evil.com:80", "127.0.0.300", "[::2]"])(
    "Host %s is refused",
    async (host) => {
      const res = await rawRequest(t.url, { path: "/concurrency/status", headers: { ...auth(), host } });
      expect(res.status).toBe(403);
      expect(res.json().error.code).toBe("forbidden_host");
    },
  );

  test.each(["127.0.0.1", "localhost:7411", "[::1]", "[::1]:7411", "app.localhost:80"])("Host %s is served", async (host) => {
    const res = await rawRequest(t.url, { path: "/concurrency/status", headers: { ...auth(), host } });
    expect(res.status).toBe(200);
  });

  test.each(["https://evil.example", "null", "http://localhost:1", "https://127.0.0.1:PORT", "http://127.0.0.1:PORT/"])(
    "an API request from Origin %s is refused even with the token",
    async (origin) => {
      const res = await rawRequest(t.url, {
        method: "PUT",
        path: "/concurrency/limits/anthropic",
        headers: { ...auth(), origin: origin.replace("PORT", String(t.host.port)), "content-type": "application/json" },
        body: '{"limit":9}',
      });
      expect(res.status).toBe(403);
      expect(res.json().error).toMatchObject({ code: "forbidden_origin", message: expect.stringContaining("Origin") });
      expect((await t.client.limit("anthropic")).limit).not.toBe(9);
    },
  );

  test("the served window's own origin passes, and static files ignore Origin", async () => {
    const own = `http://127.0.0.1:${t.host.port}`;
    const api = await rawRequest(t.url, { path: "/concurrency/status", headers: { ...auth(), origin: own } });
    expect(api.status).toBe(200);
    const tunnelled = await rawRequest(t.url, { path: "/concurrency/status", headers: { ...auth(), host: "localhost:9000", origin: "http://localhost:9000" } });
    expect(tunnelled.status).toBe(200);
    const file = await rawRequest(t.url, { path: "/assets/app.js", headers: { origin: "https://evil.example" } });
    expect(file.status).toBe(200);
  });
});
