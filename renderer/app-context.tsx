// Components reach the store and the intents through context, so a test can hand them a
// store fed by a fake Bridge.
import { createContext, useContext, type ReactNode } from "react";
import { useStore } from "zustand";
import type { HeadroomState, HeadroomStore } from "./store/headroom-store";
import type { Intents } from "./store/intents";

interface AppServices {
  store: HeadroomStore;
  intents: Intents;
}

const AppContext = createContext<AppServices | undefined>(undefined);

export function AppProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return <AppContext.Provider value={services}>{children}</AppContext.Provider>;
}

function useServices(): AppServices {
  const services = useContext(AppContext);
  if (!services) throw new Error("Headroom components must be rendered inside <AppProvider>.");
  return services;
}

/** Selectors must return stable values (an entry, a primitive, or wrap with useShallow). */
export function useHeadroom<T>(selector: (state: HeadroomState) => T): T {
  return useStore(useServices().store, selector);
}

export const useIntents = (): Intents => useServices().intents;

/** For window-only state (the filter) that no bridge call carries. */
export const useHeadroomStore = (): HeadroomStore => useServices().store;
