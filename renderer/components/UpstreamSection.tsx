// The upstream base URL, and the lines an agent needs to go through Headroom.
import { useHeadroom, useIntents } from "../app-context";
import { runLine, setupLines } from "../agent-lines";
import { CopyLine } from "./CopyLine";
import { UrlField } from "./UrlField";

export function UpstreamSection({ providerId, upstream }: { providerId: string; upstream: string | undefined }) {
  const intents = useIntents();
  const proxyUrl = useHeadroom((state) => state.hostInfo?.proxyUrl);
  return (
    <div className="upstream">
      <UrlField
        label={`Upstream URL for ${providerId}`}
        visibleLabel="Upstream URL"
        placeholder="https://api.example.com"
        value={upstream ?? ""}
        focusKey="upstream"
        onSave={(text) => intents.configure(providerId, { upstream: text === "" ? null : text })}
      />
      <div className="agent-lines">
        {upstream ? (
          setupLines(providerId, upstream, proxyUrl).map((line) => (
            <CopyLine key={line.what} caption={line.tools} text={line.text} label={`Copy ${line.what} line for ${providerId}`} />
          ))
        ) : (
          <p className="muted">Set an upstream URL to gate agents through the proxy; or wrap each agent in a slot:</p>
        )}
        <CopyLine text={runLine(providerId, upstream)} label={`Copy run command for ${providerId}`} />
      </div>
    </div>
  );
}
