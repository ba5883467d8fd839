// The empty window's first step (SPEC §4 "First run"): the presets lead, then the agents to
// connect; the manual lines stay for agents Headroom does not connect itself.
import { useHeadroom } from "../app-context";
import { firstRunLines } from "../agent-lines";
import { ConnectRegion } from "./ConnectRegion";
import { CopyLine } from "./CopyLine";
import { PresetButtons } from "./PresetButtons";

export function SetupLines() {
  const proxyUrl = useHeadroom((state) => state.hostInfo?.proxyUrl);
  return (
    <div className="empty">
      <p>No providers yet. Add one with a button below, or a custom provider with the form at the end of the page.</p>
      <PresetButtons />
      <ConnectRegion />
      <p>Or start an agent through the proxy by hand, for this shell only:</p>
      <div className="agent-lines">
        {firstRunLines(proxyUrl).map(({ agent, line }) => (
          <CopyLine key={agent} text={line} label={`Copy setup line for ${agent}`} caption={agent} />
        ))}
      </div>
      <p>
        Or run <code>npm run demo</code> to watch simulated agents fill the window.
      </p>
    </div>
  );
}
