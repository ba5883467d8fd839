// The app's settings backend (electron/shell/settings-backend.ts) built for real on a temp folder.
// electron-store imports `electron` at its top, and the `electron` package's entry throws here
// ("Electron failed to install correctly": no binary is downloaded on this machine), so the
// module is stood in by what electron-store reads of it outside Electron's main process: no app,
// no ipcMain. Everything else is electron-store's and conf's own code over our schema.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { openSettings } from "../../../electron/settings/settings-store";

vi.mock("electron", () => ({ default: { app: undefined, ipcMain: undefined, shell: undefined } }));

const { electronStoreBackend } = await import("../../../electron/shell/settings-backend");

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "headroom-estore-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const anthropic = { limit: 4, cooldownMs: 350, autoReduced: false, noticeDismissed: false, upstream: "https://api.anthropic.com" };

test("electron-store writes the settings file that conf (in `serve`) reads back, mode 0600", () => {
  const app = openSettings({ dir, backend: electronStoreBackend });
  app.update((draft) => void (draft.providers.anthropic = { ...anthropic }));
  expect(app.notices()).toEqual([]);
  const file = path.join(dir, "settings.json");
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);

  const served = openSettings({ dir });
  expect(served.read().providers.anthropic).toEqual(anthropic);
});

test("its ajv checks the same schema: a value the schema refuses is never written", () => {
  const app = openSettings({ dir, backend: electronStoreBackend });
  app.update((draft) => void (draft.providers.anthropic = { ...anthropic }));
  const before = fs.readFileSync(path.join(dir, "settings.json"), "utf8");
  expect(() => app.update((draft) => void (draft.providers.anthropic = { ...anthropic, upstream: "ftp://x" }))).toThrow(
    /upstream must be an http:\/\/ or https:\/\/ URL/,
  );
  expect(fs.readFileSync(path.join(dir, "settings.json"), "utf8")).toBe(before);
});
