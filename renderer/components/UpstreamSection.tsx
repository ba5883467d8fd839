// The upstream base URL, and the lines an agent needs to go through Headroom.
import { checkProviderConfigBody } from "../../shared/validate";
import { useHeadroom, useIntents } from "../app-context";
import { runLine, setupLines } from "../agent-lines";
import { CommitField, refused } from "./CommitField";
import { CopyLine } from "./CopyLine";

export function UpstreamSection({ providerId, upstream }: { providerId: string; upstream: string | undefined }) {
  const intents = useIntents();
  const proxyUrl = useHeadroom((state) => state.hostInfo?.proxyUrl);
  return (
    <div className="upstream">
      <CommitField
        label={`Upstream URL for ${providerId}`}
        visibleLabel="Upstream URL"
        value={upstream ?? ""}
        inputProps={{ type: "url", placeholder: "https://api.example.com", className: "wide" }}
        onCommit={(draft) => {
          const text = draft.trim();
          const checked = checkProviderConfigBody({ upstream: text === "" ? null : text });
          return checked.ok ? intents.configure(providerId, checked.value) : refused(checked.message);
        }}
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
