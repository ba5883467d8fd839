// SPEC §9 in the window: the agents seen in the last hour, what they run on and what they
// used; picking one highlights its leases on the cards. A host that does not track agents
// sends no list, and the window shows none (no error: there is nothing the user can do).
import { useHeadroom, useHeadroomStore } from "../app-context";
import type { AgentEntry } from "../../shared/types";
import { formatClock } from "../format";
import { agentRow } from "../store/apply-snapshots";
import { shortAgentLabel } from "../short-words";

/** The side column's width at 12px: a longer label shrinks its folder, the whole one is on hover. */
const LABEL_CHARS = 28;

const TOKENS = new Intl.NumberFormat([], { notation: "compact", maximumFractionDigits: 1 });

function stateText(agent: AgentEntry): string {
  if (agent.state === "waiting") {
    const waiting = agent.position === undefined ? "waiting" : `waiting #${agent.position}`;
    // SPEC §8: a `headroom run --resume` goes on by itself after the window's reset.
    return agent.resuming ? `${waiting} · resuming` : waiting;
  }
  return agent.state;
}

function tokens(agent: AgentEntry): string {
  const { input, output, cacheRead, cacheWrite } = agent.tokens;
  return `${TOKENS.format(input + output + cacheRead + cacheWrite)} tokens`;
}

export function AgentsList() {
  const store = useHeadroomStore();
  const agents = useHeadroom((state) => state.agents);
  const selected = useHeadroom((state) => state.selectedAgent);
  if (agents === undefined) return null;
  return (
    <section className="panel agents" aria-label="Agents">
      <h2>Agents</h2>
      {agents.length === 0 ? (
        <p className="muted calm">No agent in the last hour</p>
      ) : (
        <ul className="agents-list">
          {agents.map((agent) => (
            <li key={agentRow(agent)} className={`agent-${agent.state}`}>
              <button
                type="button"
                className="agent-row"
                aria-pressed={selected === agent.key}
                onClick={() => store.setState({ selectedAgent: selected === agent.key ? undefined : agent.key })}
              >
                <span className="agent-label" title={agent.label}>
                  {shortAgentLabel(agent.label, LABEL_CHARS)}
                </span>
                <span className="agent-meta">
                  {agent.providerId} · {stateText(agent)} since {formatClock(agent.since)} · {tokens(agent)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
