import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { HostInfo, InvokeChannel, Result } from "../../../shared/contract";
import { INVOKE_CHANNELS } from "../../../shared/operations";
import { createChannelTable, type ChannelTable } from "../../../electron/ipc/channel-table";
import { answer } from "../../../electron/ipc/ipc-result";
import { registerChannels, type IpcRegistry } from "../../../electron/ipc/register-channels";
import type { FrameLike } from "../../../electron/ipc/sender-check";
import { APP_URL } from "../../../electron/shell/app-scheme";
import { HeadroomService } from "../../../electron/service/headroom-service";
import { openSettings, type SettingsStore } from "../../../electron/settings/settings-store";
import { createFakeClock } from "../../support/fake-clock";

const hostInfo: HostInfo = { apiUrl: "http://127.0.0.1:7411", proxyUrl: "http://127.0.0.1:7412", version: "0.1.0", hostName: "test:7411" };
const route = { targetId: "anthropic", runtimeId: "http", modelId: "claude" };

let dir: string;
let store: SettingsStore;
let service: HeadroomService;
let table: ChannelTable;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "headroom-ipc-"));
  store = openSettings({ dir });
  service = new HeadroomService({ store, clock: createFakeClock(), newId: randomUUID, hostInfo: () => hostInfo });
  table = createChannelTable(service);
});

afterEach(() => {
  service.close();
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const call = (channel: InvokeChannel, request?: unknown) => answer(table, channel, request) as Result<unknown>;
const value = (channel: InvokeChannel, request?: unknown) => {
  const result = call(channel, request);
  if (!result.ok) throw new Error(`${channel} failed: ${result.message}`);
  return result.value;
};

describe("every channel checks its request before the service sees it", () => {
  const bad: [InvokeChannel, unknown, string][] = [
    ["limit:set", undefined, "request"],
    ["limit:set", { providerId: "Not An Id", limit: 3 }, "providerId"],
    ["limit:set", { providerId: "anthropic", limit: 0 }, "limit"],
    ["limit:set", { providerId: "anthropic", limit: 1.5 }, "limit"],
    ["cooldown:set", { providerId: "anthropic", cooldownMs: -1 }, "cooldownMs"],
    ["cooldown:set", { providerId: "anthropic", cooldownMs: 600_001 }, "cooldownMs"],
    ["cooldown:set", "anthropic", "request"],
    ["provider:get", {}, "providerId"],
    ["provider:configure", "anthropic", "request"],
    ["provider:configure", { providerId: "anthropic", upstream: "ftp://x" }, "upstream"],
    ["provider:configure", { providerId: "anthropic", usageGate: { url: "http://x", pollMs: 1 } }, "usageGate.pollMs"],
    ["provider:configure", { providerId: "anthropic", responseTimeoutMs: 999 }, "responseTimeoutMs"],
    ["provider:remove", { providerId: "../etc" }, "providerId"],
    ["provider:resume", { providerId: 7 }, "providerId"],
    ["notice:dismiss", null, "request"],
    ["notice:accept", { providerId: ".." }, "providerId"],
    ["leases:get", [], "request"],
    ["lease:release", { leaseId: "a b" }, "leaseId"],
    ["routes:settings", { threshold: 0 }, "threshold"],
    ["routes:settings", {}, "threshold"],
    ["series:get", { minutes: 61 }, "minutes"],
    ["usage:get", { hours: 193 }, "hours"],
    ["usage:get", { by: "team" }, "by"],
    ["route:reset", { targetId: "anthropic", runtimeId: "http" }, "modelId"],
    ["connection:connect", { agent: "claude", dryRun: "yes" }, "dryRun"],
    ["connection:connect", { agent: "Claude Code" }, "agent"],
    ["connection:disconnect", {}, "agent"],
  ];

  test.each(bad)("%s with %j is invalid_input naming %s", (channel, request, field) => {
    const result = call(channel, request);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe("invalid_input");
    expect(result.message).toContain(field);
  });

  test("every channel with a request has a bad case above", () => {
    const voidChannels = ["status:get", "routes:get", "history:get", "host:info", "agents:get", "presets:get", "connections:get"];
    const covered = new Set(bad.map(([channel]) => channel));
    expect(INVOKE_CHANNELS.filter((c) => !voidChannels.includes(c) && !covered.has(c))).toEqual([]);
  });

  test("a refused request changes nothing", () => {
    call("limit:set", { providerId: "anthropic", limit: 0 });
    expect(service.status().providers).toEqual([]);
  });
});

describe("every channel calls through to the service", () => {
  test("limit:set creates a provider that status:get then shows", () => {
    expect(value("limit:set", { providerId: "anthropic", limit: 4 })).toEqual({ providerId: "anthropic", limit: 4 });
    const status = value("status:get") as { providers: { providerId: string; limit: number }[] };
    expect(status.providers.map((p) => [p.providerId, p.limit])).toEqual([["anthropic", 4]]);
  });

  test("cooldown, provider config, resume, dismiss and remove", () => {
    value("limit:set", { providerId: "anthropic", limit: 2 });
    expect(value("cooldown:set", { providerId: "anthropic", cooldownMs: 1200 })).toEqual({
      providerId: "anthropic",
      cooldownMs: 1200,
    });
    expect(
      value("provider:configure", { providerId: "anthropic", upstream: "https://api.anthropic.com/" }),
    ).toMatchObject({ upstream: "https://api.anthropic.com", cooldownMs: 1200, limit: 2 });
    expect(value("provider:get", { providerId: "anthropic" })).toMatchObject({ upstream: "https://api.anthropic.com" });
    expect(value("provider:resume", { providerId: "anthropic" })).toMatchObject({ providerId: "anthropic", paused: false });
    expect(value("notice:dismiss", { providerId: "anthropic" })).toMatchObject({ noticeDismissed: true });
    expect(value("notice:accept", { providerId: "anthropic" })).toMatchObject({ limit: 2, autoReduced: false });
    expect(value("provider:remove", { providerId: "anthropic" })).toEqual({ removed: true });
    expect(service.hasProvider("anthropic")).toBe(false);
  });

  test("leases:get shows a held lease and lease:release lets it go by hand", async () => {
    service.setLimit({ providerId: "anthropic", limit: 1 });
    const { leaseId } = await service.acquire({ providerId: "anthropic", agentId: "claude-1" });
    expect(value("leases:get", { providerId: "anthropic" })).toMatchObject({ held: [{ leaseId, agentId: "claude-1" }] });
    expect(value("lease:release", { leaseId })).toEqual({ released: true });
    expect(value("lease:release", { leaseId })).toEqual({ released: false });
    const history = value("history:get") as { events: { kind: string }[] };
    expect(history.events.map((e) => e.kind)).toContain("lease_released_by_hand");
  });

  test("routes: settings, an open route and its reset", () => {
    expect(value("routes:settings", { threshold: 1, cooldownMs: 20_000 })).toEqual({ threshold: 1, cooldownMs: 20_000 });
    service.routeOutcome({ ...route, runId: "run-1", outcome: "failure", reason: "upstream 529" });
    const routes = value("routes:get") as { routes: { state: string }[] };
    expect(routes.routes[0]?.state).toBe("open");
    expect(value("route:reset", route)).toMatchObject({ ...route, state: "closed" });
  });

  test("host:info answers the host's addresses", () => {
    expect(value("host:info")).toEqual(hostInfo);
  });
});

describe("errors cross as results, never as throws", () => {
  test("an unknown provider is unknown_provider with the list of known ones", () => {
    service.setLimit({ providerId: "openai", limit: 2 });
    const result = call("provider:get", { providerId: "anthropic" });
    expect(result).toMatchObject({ ok: false, code: "unknown_provider" });
    expect(!result.ok && result.message).toContain("openai");
  });

  test("an unknown lease is unknown_lease", () => {
    expect(call("lease:release", { leaseId: "never-held" })).toMatchObject({ ok: false, code: "unknown_lease" });
  });

  test("a bug inside a handler becomes an internal error with its message", () => {
    const broken: ChannelTable = {
      ...table,
      "status:get": () => {
        throw new Error("disk on fire");
      },
    };
    const logged: string[] = [];
    expect(answer(broken, "status:get", undefined, (m) => logged.push(m))).toEqual({
      ok: false,
      code: "internal",
      message: "Headroom hit an unexpected error: disk on fire",
    });
    expect(logged).toEqual(["IPC status:get failed"]);
  });

  test("a handler that answers later (a shared provider's route waits for Redis) gives a Result later, its error too", async () => {
    const later: ChannelTable = {
      ...table,
      "routes:get": () => Promise.resolve({ routes: [], settings: { threshold: 1, cooldownMs: 15_000 } }),
      "route:reset": () => Promise.reject(new Error("Redis said no")),
    };
    const logged: string[] = [];
    expect(await answer(later, "routes:get", undefined)).toEqual({ ok: true, value: { routes: [], settings: { threshold: 1, cooldownMs: 15_000 } } });
    expect(await answer(later, "route:reset", route, (m) => logged.push(m))).toEqual({
      ok: false,
      code: "internal",
      message: "Headroom hit an unexpected error: Redis said no",
    });
    expect(logged).toEqual(["IPC route:reset failed"]);
  });

  test("a closed service answers unavailable", () => {
    service.close();
    expect(call("limit:set", { providerId: "anthropic", limit: 2 })).toMatchObject({ ok: false, code: "unavailable" });
  });
});

describe("registerChannels: the only way handlers are registered", () => {
  type Event = { senderFrame: FrameLike | null };
  const appUrl = APP_URL;

  function fakeIpcMain() {
    const handlers = new Map<string, (event: Event, ...args: unknown[]) => unknown>();
    const registry: IpcRegistry<Event> = {
      handle: (channel, listener) => {
        if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
        handlers.set(channel, listener);
      },
      removeHandler: (channel) => handlers.delete(channel),
    };
    return { handlers, registry };
  }

  test("registers one handler per channel; the main frame is answered, anyone else refused", () => {
    const { handlers, registry } = fakeIpcMain();
    const mainFrame: FrameLike = { url: `${appUrl}#/` };
    const logged: string[] = [];
    const dispose = registerChannels({
      ipcMain: registry,
      table,
      mainFrame: () => mainFrame,
      appUrl,
      log: (m) => logged.push(m),
    });
    expect([...handlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());

    const setLimit = handlers.get("limit:set")!;
    expect(setLimit({ senderFrame: mainFrame }, { providerId: "anthropic", limit: 3 })).toEqual({
      ok: true,
      value: { providerId: "anthropic", limit: 3 },
    });
    const subframe: FrameLike = { url: appUrl };
    expect(setLimit({ senderFrame: subframe }, { providerId: "anthropic", limit: 9 })).toMatchObject({
      ok: false,
      code: "forbidden_sender",
    });
    expect(setLimit({ senderFrame: null }, { providerId: "anthropic", limit: 9 })).toMatchObject({ ok: false });
    expect(service.limit({ providerId: "anthropic" }).limit).toBe(3);
    expect(logged).toHaveLength(2);

    dispose();
    expect(handlers.size).toBe(0);
  });

  test("with no live window every call is refused", () => {
    const { handlers, registry } = fakeIpcMain();
    registerChannels({ ipcMain: registry, table, mainFrame: () => undefined, appUrl });
    expect(handlers.get("status:get")!({ senderFrame: { url: appUrl } })).toMatchObject({ code: "forbidden_sender" });
  });
});
