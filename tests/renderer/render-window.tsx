import { act, render } from "@testing-library/react";
import { AppProvider } from "../../renderer/app-context";
import { App } from "../../renderer/components/App";
import { connectStore } from "../../renderer/store/connect-store";
import { createHeadroomStore } from "../../renderer/store/headroom-store";
import { createIntents } from "../../renderer/store/intents";
import { createFakeBridge, type FakeBridge } from "./fake-bridge";

/** The whole window over a fake bridge, connected the way main.tsx connects it. */
export function renderWindow(bridge: FakeBridge = createFakeBridge()) {
  const store = createHeadroomStore();
  const disconnect = connectStore(store, bridge);
  const view = render(
    <AppProvider services={{ store, intents: createIntents(bridge, store) }}>
      <App />
    </AppProvider>,
  );
  const push: FakeBridge["push"] = (topic, snapshot) => act(() => bridge.push(topic, snapshot));
  const connect = (state: Parameters<FakeBridge["connect"]>[0]) => act(() => bridge.connect(state));
  return { ...view, bridge, store, push, connect, disconnect };
}
