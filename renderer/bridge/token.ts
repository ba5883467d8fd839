// The browser window's API token: handed over once in the URL fragment (which never reaches a
// server log), then kept for this tab only and wiped from the address bar so it is not shared
// by a copied link or a screenshot.
const STORAGE_KEY = "headroom.token";

export interface TokenPlace {
  location: Pick<Location, "hash" | "pathname" | "search">;
  storage: Pick<Storage, "getItem" | "setItem">;
  history: Pick<History, "replaceState">;
}

export function takeToken({ location, storage, history }: TokenPlace): string | undefined {
  const fromFragment = new URLSearchParams(location.hash.replace(/^#/, "")).get("token");
  if (fromFragment) {
    storage.setItem(STORAGE_KEY, fromFragment);
    history.replaceState(null, "", `${location.pathname}${location.search}`);
    return fromFragment;
  }
  return storage.getItem(STORAGE_KEY) ?? undefined;
}
