// The Electron side end to end, in one process (no Electron binary here): the real preload API
// builder over a stand-in ipcRenderer → the real channel registration (sender check included)
// over a stand-in ipcMain → the service on a temp folder → the snapshot feed back through the
// stand-in webContents → the Electron bridge → the store → the React window in happy-dom.
// Every hop serialises with structuredClone, as Electron's IPC does.
import { EventEmitter } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, expect, test } from "vitest";
import { pushChannel } from "../../shared/desktop-api";
import { createChannelTable } from "../../electron/ipc/channel-table";
import { buildDesktopApi, ipcTransport, type IpcRendererLike } from "../../electron/ipc/preload-api";
import { registerChannels, type IpcRegistry } from "../../electron/ipc/register-channels";
import type { FrameLike } from "../../electron/ipc/sender-check";
import { APP_URL } from "../../electron/shell/app-scheme";
import { HeadroomService } from "../../electron/service/headroom-service";
import { startSnapshotFeed, PUSH_WINDOW_MS } from "../../electron/service/snapshot-feed";
import { openSettings } from "../../electron/settings/settings-store";
import { AppProvider } from "../../renderer/app-context";
import { createElectronBridge } from "../../renderer/bridge/electron-bridge";
import { App } from "../../renderer/components/App";
import { connectStore } from "../../renderer/store/connect-store";
import { createHeadroomStore } from "../../renderer/store/headroom-store";
import { createIntents } from "../../renderer/store/intents";
import { createFakeClock, type FakeClock } from "../support/fake-clock";

const appUrl = APP_URL;

type SenderEvent = { senderFrame: FrameLike | null };

let dir: string;
let clock: FakeClock;
let service: HeadroomService;
let teardown: (() => void)[] = [];

/** ipcMain and one window's ipcRenderer + webContents, joined the way Electron joins them. */
function wire(frame: FrameLike) {
  const handlers = new Map<string, (event: SenderEvent, ...args: unknown[]) => unknown>();
  const ipcMain: IpcRegistry<SenderEvent> = {
    handle: (channel, listener) => void handlers.set(channel, listener),
    removeHandler: (channel) => void handlers.delete(channel),
  };
  const rendererSide = new EventEmitter();
  const ipcRenderer: IpcRendererLike = {
    async invoke(channel, ...args) {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      return structuredClone(await handler({ senderFrame: frame }, ...structuredClone(args)));
    },
    on: (channel, listener) => rendererSide.on(channel, listener),
    removeListener: (channel, listener) => rendererSide.removeListener(channel, listener),
  };
  const webContents = { send: (channel: string, payload: unknown) => rendererSide.emit(channel, { sender: ipcRenderer }, structuredClone(payload)) };
  return { ipcMain, ipcRenderer, webContents, handlers };
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "headroom-wiring-"));
  clock = createFakeClock();
  service = new HeadroomService({ store: openSettings({ dir }), clock, newId: (() => { let n = 0; return () => `lease-${++n}`; })() });
  teardown = [];
});

afterEach(() => {
  cleanup();
  for (const undo of teardown.reverse()) undo();
  service.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function openWindow() {
  const mainFrame: FrameLike = { url: `${appUrl}#/` };
  const { ipcMain, ipcRenderer, webContents, handlers } = wire(mainFrame);
  // main.ts, step 5 and 6: the channels, then the feed that pushes to the window.
  teardown.push(registerChannels({ ipcMain, table: createChannelTable(service), mainFrame: () => mainFrame, appUrl }));
  teardown.push(startSnapshotFeed(service, clock, ({ topic, snapshot }) => webContents.send(pushChannel(topic), snapshot)));
  // preload.ts: what contextBridge would expose as window.headroom.
  const api = buildDesktopApi(ipcTransport(ipcRenderer));
  // renderer/main.tsx: bridge, store, intents, window.
  const bridge = createElectronBridge(api);
  const store = createHeadroomStore();
  teardown.push(connectStore(store, bridge));
  render(
    <AppProvider services={{ store, intents: createIntents(bridge, store) }}>
      <App />
    </AppProvider>,
  );
  return { handlers };
}

/** Lets the feed's coalescing window pass and every IPC round trip settle. */
async function settle(): Promise<void> {
  await act(async () => {
    clock.advance(PUSH_WINDOW_MS);
    for (let i = 0; i < 20; i++) await Promise.resolve();
  });
}

test("a limit typed in the window reaches the service through preload and IPC, and comes back in the push", async () => {
  service.setLimit({ providerId: "anthropic", limit: 3 });
  openWindow();
  const card = await screen.findByRole("region", { name: "anthropic" });
  const field = within(card).getByRole("spinbutton", { name: "Limit for anthropic" });
  expect(field).toHaveProperty("value", "3");

  await act(async () => {
    fireEvent.change(field, { target: { value: "5" } });
    fireEvent.keyDown(field, { key: "Enter" });
  });
  await settle();
  expect(service.limit({ providerId: "anthropic" })).toEqual({ providerId: "anthropic", limit: 5 });
  expect(JSON.parse(fs.readFileSync(path.join(dir, "settings.json"), "utf8")).providers.anthropic.limit).toBe(5);
  expect(within(card).getByRole("spinbutton", { name: "Limit for anthropic" })).toHaveProperty("value", "5");
});

test("an automatic reduction shows the banner, and its Restore button restores the limit in the service", async () => {
  service.setLimit({ providerId: "anthropic", limit: 4 });
  openWindow();
  await screen.findByRole("region", { name: "anthropic" });

  // An agent's 429 lowers the limit in the main process; the push brings the banner.
  const { leaseId } = await service.acquire({ providerId: "anthropic" });
  service.release({ leaseId, outcome: "rate_limited", retryAfterMs: 1_000 });
  await settle();
  const card = screen.getByRole("region", { name: "anthropic" });
  const banner = within(card).getByRole("alert");
  expect(banner.textContent).toContain("Limit for anthropic lowered from 4 to 3 after a rate limit (429).");

  await act(async () => {
    fireEvent.click(within(banner).getByRole("button", { name: "Restore limit to 4" }));
  });
  await settle();
  expect(service.statusOf("anthropic")).toMatchObject({ limit: 4, autoReduced: false });
  expect(within(card).queryByRole("alert")).toBeNull();
  expect(within(card).queryByRole("button", { name: "Restore limit to 4" })).toBeNull();
});

test("the preload reaches only the whitelisted channels, and a foreign frame is refused by the sender check", async () => {
  service.setLimit({ providerId: "anthropic", limit: 2 });
  const { handlers } = openWindow();
  await screen.findByRole("region", { name: "anthropic" });
  expect([...handlers.keys()]).not.toContain("release");
  const setLimit = handlers.get("limit:set")!;
  const answer = setLimit({ senderFrame: { url: "https://evil.example/" } }, { providerId: "anthropic", limit: 9 });
  expect(answer).toMatchObject({ ok: false, code: "forbidden_sender" });
  expect(service.limit({ providerId: "anthropic" }).limit).toBe(2);
});
