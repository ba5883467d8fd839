// The window's entry: pick the transport, feed the store from it once, render.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { AppProvider } from "./app-context";
import { chooseBridge } from "./bridge/choose-bridge";
import { App } from "./components/App";
import { connectStore } from "./store/connect-store";
import { createHeadroomStore } from "./store/headroom-store";
import { createIntents } from "./store/intents";
import "./styles.css";
import "./regions.css";

const { bridge, tokenGiven } = chooseBridge();
const store = createHeadroomStore();
store.setState({ tokenGiven });
connectStore(store, bridge);

const root = document.getElementById("root");
if (!root) throw new Error("index.html lost its #root element");
createRoot(root).render(
  <StrictMode>
    <AppProvider services={{ store, intents: createIntents(bridge, store) }}>
      <App />
    </AppProvider>
  </StrictMode>,
);
