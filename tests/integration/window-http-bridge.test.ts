// The browser window's transport against a real host: snapshots arrive over the streaming
// fetch, a restart is survived on the same port, and a wrong token says so instead of retrying.
import { afterEach, expect, test } from "vitest";
import type { ConnectionState, PushMap } from "../../shared/contract";
import { createHttpBridge } from "../../renderer/bridge/http-bridge";
import { eventually, removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

test("invokes map to the API and pushes arrive; after a restart on the same port it is live again", async () => {
  const dataDir = tempDir();
  cleanups.push(() => removeDir(dataDir));
  let host: TestHost = await startTestHost({ dataDir });
  cleanups.push(() => host.stop());
  const bridge = createHttpBridge({ baseUrl: host.url, token: host.host.token });
  cleanups.push(() => bridge.close());
  const states: ConnectionState[] = [];
  const statuses: PushMap["status"][] = [];
  bridge.onConnection((state) => states.push(state));
  bridge.subscribe("status", (status) => statuses.push(status));

  await eventually(() => expect(states.at(-1)).toBe("live"));
  expect(await bridge.invoke("limit:set", { providerId: "anthropic", limit: 3 })).toEqual({
    ok: true,
    value: { providerId: "anthropic", limit: 3 },
  });
  await eventually(() => expect(statuses.at(-1)?.providers.map((p) => p.limit)).toEqual([3]));
  expect(await bridge.invoke("limit:set", { providerId: "Bad Id", limit: 3 })).toMatchObject({ ok: false, code: "invalid_input" });

  const port = host.host.port;
  await host.stop();
  await eventually(() => expect(states.at(-1)).toBe("reconnecting"));
  host = await startTestHost({ dataDir, port });
  await eventually(() => expect(states.at(-1)).toBe("live"), 10_000);
  await host.client.setLimit("anthropic", 5);
  await eventually(() => expect(statuses.at(-1)?.providers.map((p) => p.limit)).toEqual([5]));
});

test("a wrong token ends in the unauthorized state, without retrying", async () => {
  const host = await startTestHost();
  cleanups.push(() => removeDir(host.dataDir));
  cleanups.push(() => host.stop());
  const bridge = createHttpBridge({ baseUrl: host.url, token: "wrong" });
  cleanups.push(() => bridge.close());
  const states: ConnectionState[] = [];
  bridge.onConnection((state) => states.push(state));
  await eventually(() => expect(states.at(-1)).toBe("unauthorized"));
  expect(states).not.toContain("reconnecting");
  expect(await bridge.invoke("status:get")).toMatchObject({ ok: false, code: "unauthorized" });
});
