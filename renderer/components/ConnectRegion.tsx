// SPEC §10 in the window: each agent Headroom can connect, `Connect <Agent name>` showing the
// change first and making it on `Apply`, and `Disconnect <Agent name>`.
import { useCallback, useEffect, useState } from "react";
import { AGENT_IDS, AGENT_NAMES, type ConnectAnswer, type ConnectionEntry } from "../../shared/presets";
import { useHeadroom, useIntents } from "../app-context";
import { useAction } from "../hooks/use-action";

function stateText(entry: ConnectionEntry): string {
  if (entry.connected) return `connected to ${entry.provider ?? "Headroom"}`;
  return entry.installed ? "not connected" : "not found on this machine";
}

export function ConnectRegion() {
  const intents = useIntents();
  const providerCount = useHeadroom((state) => state.providerIds.length);
  // Every agent's row from the start (state unknown until the host answers): the list never grows.
  const [entries, setEntries] = useState<ConnectionEntry[]>(() =>
    AGENT_IDS.map((agent) => ({ agent, name: AGENT_NAMES[agent], installed: false, connected: false, files: [] })),
  );
  const [loaded, setLoaded] = useState(false);
  const [pending, setPending] = useState<ConnectAnswer>();
  const [done, setDone] = useState<string>();
  const { error, busy, run, setError } = useAction();

  const refresh = useCallback(async () => {
    const result = await intents.connections();
    if (result.ok) {
      setEntries(result.value.connections);
      setLoaded(true);
    }
  }, [intents]);
  useEffect(() => void refresh(), [refresh, providerCount]);

  async function preview(agent: string): Promise<void> {
    setDone(undefined);
    const result = await run(intents.connectAgent(agent, true));
    if (result.ok) setPending(result.value);
  }

  async function apply(answer: ConnectAnswer): Promise<void> {
    const result = await run(intents.connectAgent(answer.agent, false));
    if (!result.ok) return;
    setPending(undefined);
    const name = entries.find((entry) => entry.agent === answer.agent)?.name ?? answer.agent;
    setDone([`${name} is connected to ${result.value.provider ?? "Headroom"}.`, ...(result.value.notes ?? [])].join(" "));
    await refresh();
  }

  async function disconnect(entry: ConnectionEntry): Promise<void> {
    setPending(undefined);
    const result = await run(intents.disconnectAgent(entry.agent));
    if (!result.ok) return;
    setDone(`${entry.name} is disconnected: its configuration is as it was before.`);
    await refresh();
  }

  return (
    <section className="connect-region" aria-labelledby="connect-heading">
      <h2 id="connect-heading">Connect</h2>
      <p className="muted">Point an agent at Headroom by editing its own configuration; connected agents need Headroom running.</p>
      <ul className="connect-list">
        {entries.map((entry) => (
          <li key={entry.agent}>
            <span className="connect-name">{entry.name}</span> <span className="muted">{loaded ? stateText(entry) : "checking…"}</span>{" "}
            {entry.connected ? (
              <button type="button" disabled={busy} onClick={() => void disconnect(entry)}>
                Disconnect {entry.name}
              </button>
            ) : (
              <button type="button" disabled={busy} onClick={() => void preview(entry.agent)}>
                Connect {entry.name}
              </button>
            )}
          </li>
        ))}
      </ul>
      {pending && (
        <div className="connect-diff" role="group" aria-label={`Change to ${pending.agent}'s configuration`}>
          {pending.files.length === 0 && <p>Nothing to change: it is connected already.</p>}
          {pending.files.map((file) => (
            <div key={file.path}>
              <p className="connect-file">{file.path}</p>
              <pre>{file.diff}</pre>
            </div>
          ))}
          <button type="button" className="primary" disabled={busy} onClick={() => void apply(pending)}>
            Apply
          </button>{" "}
          <button
            type="button"
            onClick={() => {
              setPending(undefined);
              setError(undefined);
            }}
          >
            Cancel
          </button>
        </div>
      )}
      {/* Only while there is something to say: an empty alert would still count as one. */}
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
      <p role="status" className="muted">
        {done}
      </p>
    </section>
  );
}
