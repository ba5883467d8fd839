// electron-store for the app's settings: the same schema and checks as conf in `serve` (it is
// conf underneath). Only the shell imports it: electron-store 11 is ESM-only and needs Electron.
import Store from "electron-store";
import type { SettingsData } from "../settings/settings-schema";
import type { BackendFactory } from "../settings/settings-store";

export const electronStoreBackend: BackendFactory = ({ configName, projectName: _, ...rest }) =>
  new Store<SettingsData>({ ...rest, name: configName });
