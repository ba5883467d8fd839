// The empty window's first step: add a provider, then point an agent at the proxy.
import { useHeadroom } from "../app-context";
import { firstRunLines } from "../agent-lines";
import { CopyLine } from "./CopyLine";

export function SetupLines() {
  const proxyUrl = useHeadroom((state) => state.hostInfo?.proxyUrl);
  return (
    <div className="empty">
      <p>
        No providers yet. Add one above (its id is how agents name it, e.g. <code>anthropic</code> or <code>openai</code>),
        set its upstream URL on its card, then start your agents through the proxy:
      </p>
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
