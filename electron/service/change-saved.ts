import type { SettingsStore } from "../settings/settings-store";
import { notSaved } from "./service-error";

/**
 * Nothing is acknowledged that is not saved (SPEC §1): the change is made only when the data
 * folder can be written now, and it counts as done only once its own write succeeded.
 */
export function changeSaved<T>(store: SettingsStore, change: () => T): T {
  const before = store.rewrite();
  if (before !== undefined) throw notSaved(store.path, before, "the change was not made");
  const result = change();
  const after = store.writeError();
  if (after !== undefined) throw notSaved(store.path, after, "the change applies until Headroom exits");
  return result;
}
