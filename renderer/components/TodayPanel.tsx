// SPEC §4 "Today": since the host's local midnight, what each agent and project cost
// (`API-equivalent` on a plan, said in words), each agent's estimated share of its provider's
// plan window, and tokens per hour as a small bar list. Read from `GET /usage?days=1` (by agent,
// project and hour) whenever the agents change, at most every 5 s; the box has a fixed height,
// so rows arriving never move what is below it.
import { useEffect, useRef, useState } from "react";
import type { AgentEntry, UsageRow } from "../../shared/agents";
import { windowName } from "../../shared/attention-words";
import { API_EQUIVALENT, costText } from "../../shared/cost-words";
import { useHeadroom, useIntents } from "../app-context";
import { formatClockShort } from "../format";
import { shortAgentLabel, shortFolder } from "../short-words";

const REFRESH_MS = 5_000;
const LABEL_CHARS = 30;
const TOKENS = new Intl.NumberFormat([], { notation: "compact", maximumFractionDigits: 1 });

interface Today {
  agents: UsageRow[];
  projects: UsageRow[];
  hours: UsageRow[];
}

const tokenSum = (row: UsageRow) => row.tokens.input + row.tokens.output + row.tokens.cacheRead + row.tokens.cacheWrite;

/** `$1.27`, or `$1.27 API-equivalent` on a plan: a figure never passes for a bill it is not. */
const costWords = (row: UsageRow) => (row.apiEquivalent ? `${costText(row)} ${API_EQUIVALENT}` : costText(row));

/** `≈ 23 % of the 5-hour window (anthropic)`, one per provider the agent ran on with a binding window. */
function shareWords(label: string | undefined, agents: readonly AgentEntry[] | undefined): string {
  const shares = (agents ?? []).filter((agent) => agent.label === label && agent.windowShare);
  if (shares.length === 0) return "–";
  return shares.map(({ windowShare, providerId }) => `≈ ${windowShare!.percent} % of the ${windowName(windowShare!.window)} window (${providerId})`).join("; ");
}

/** In name order, not by size: rows keep their place as the figures grow (SPEC §4: nothing re-sorts under the pointer). */
const byName = (rows: UsageRow[], key: "agent" | "project") => [...rows].sort((a, b) => (a[key] ?? "").localeCompare(b[key] ?? ""));

function useToday(): Today | undefined {
  const intents = useIntents();
  const agents = useHeadroom((state) => state.agents);
  const [today, setToday] = useState<Today>();
  const last = useRef(0);
  useEffect(() => {
    let live = true;
    const load = async () => {
      last.current = Date.now();
      const [byAgent, byProject, byHour] = await Promise.all([intents.usageToday("agent"), intents.usageToday("project"), intents.usageToday("hour")]);
      if (live && byAgent.ok && byProject.ok && byHour.ok) {
        setToday({ agents: byName(byAgent.value.rows, "agent"), projects: byName(byProject.value.rows, "project"), hours: byHour.value.rows });
      }
    };
    const wait = Math.max(0, last.current + REFRESH_MS - Date.now());
    const timer = setTimeout(() => void load(), wait);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [intents, agents]);
  return today;
}

function HourBars({ hours }: { hours: UsageRow[] }) {
  const most = Math.max(1, ...hours.map(tokenSum));
  return (
    <ol className="hour-bars" aria-label="Tokens per hour today">
      {hours.map((row) => (
        <li key={row.hour}>
          <span className="hour-label">{formatClockShort(row.hour ?? 0)}</span>
          <span className="hour-bar" aria-hidden="true">
            <span style={{ width: `${(tokenSum(row) / most) * 100}%` }} />
          </span>
          <span className="hour-value">{TOKENS.format(tokenSum(row))}</span>
        </li>
      ))}
    </ol>
  );
}

export function TodayPanel() {
  const today = useToday();
  const agents = useHeadroom((state) => state.agents);
  const onPlan = today?.agents.some((row) => row.apiEquivalent) ?? false;
  const note =
    today === undefined
      ? "since midnight · reading…"
      : today.agents.length === 0
        ? "since midnight · nothing went through the proxy yet"
        : `since midnight${onPlan ? ` · on a plan, costs are ${API_EQUIVALENT}: what the API would charge` : ""}`;
  return (
    <section className="panel today" aria-label="Today">
      <h2>
        Today <span className="muted today-note">{note}</span>
      </h2>
      {/* The tables are there from the start, empty: rows arriving are appended, nothing is replaced. */}
      <div className="today-grid" tabIndex={0} role="group" aria-label="Today's costs, shares and tokens">
        <table className="today-table" aria-label="Cost per agent today">
          <thead>
            <tr>
              <th scope="col">Agent</th>
              <th scope="col">Cost</th>
              <th scope="col">Share of the window (estimate)</th>
            </tr>
          </thead>
          <tbody>
            {(today?.agents ?? []).map((row) => (
              <tr key={row.agent}>
                <th scope="row" title={row.agent}>{shortAgentLabel(row.agent ?? "-", LABEL_CHARS)}</th>
                <td>{costWords(row)}</td>
                <td>{shareWords(row.agent, agents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="today-table" aria-label="Cost per project today">
          <thead>
            <tr>
              <th scope="col">Project</th>
              <th scope="col">Cost</th>
            </tr>
          </thead>
          <tbody>
            {(today?.projects ?? []).map((row) => (
              <tr key={row.project}>
                <th scope="row" title={row.project}>{shortFolder(row.project ?? "-", LABEL_CHARS)}</th>
                <td>{costWords(row)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="today-hours">
          <h3>Tokens per hour</h3>
          <HourBars hours={today?.hours ?? []} />
        </div>
      </div>
    </section>
  );
}
