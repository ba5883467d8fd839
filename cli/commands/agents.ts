// `headroom agents` and `headroom usage [--hours N] [--by agent|provider|model]` (SPEC §9):
// who is around now, and what each agent, provider or model used.
import type { TokenCounts, UsageGroup } from "../../shared/agents";
import { UsageQuery } from "../../shared/agents";
import { check } from "../../shared/check";
import { numberOrText, parseCommandArgs, takePositionals, valid } from "../args";
import { printJson, type Command } from "../command";
import { formatDuration } from "../../shared/duration";
import { formatTable } from "../table";

/** 1234567 → "1.2M": token counts span six orders of magnitude. */
function shortCount(count: number): string {
  if (count < 1_000) return String(count);
  if (count < 1_000_000) return `${(count / 1_000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(count < 10_000_000 ? 1 : 0)}M`;
}

const tokenCells = (tokens: TokenCounts) => [tokens.input, tokens.output, tokens.cacheRead, tokens.cacheWrite].map(shortCount);
const TOKEN_HEADERS = ["INPUT", "OUTPUT", "CACHE READ", "CACHE WRITE"];

export const agentsCommand: Command = async (argv, context) => {
  const { values, positionals } = parseCommandArgs("agents", argv, {});
  takePositionals("agents", positionals, []);
  const view = await context.connection().client.agents();
  if (values.json) {
    printJson(view);
    return 0;
  }
  if (view.agents.length === 0) {
    process.stdout.write("No agent seen in the last hour.\n");
    return 0;
  }
  const now = Date.now();
  const rows = view.agents.map((agent) => [
    agent.label,
    agent.providerId,
    agent.state === "waiting" && agent.position !== undefined ? `waiting #${agent.position}` : agent.state,
    agent.state === "idle" ? `${formatDuration(Math.max(0, now - agent.lastSeenAt))} ago` : "now",
    agent.pid === undefined ? "-" : String(agent.pid),
    String(agent.requests),
    ...tokenCells(agent.tokens),
  ]);
  process.stdout.write(formatTable(["AGENT", "PROVIDER", "STATE", "SEEN", "PID", "REQUESTS", ...TOKEN_HEADERS], rows));
  if (view.omitted) process.stdout.write(`And ${view.omitted} more seen in the last hour, not shown: a snapshot carries the ${view.agents.length} seen last.\n`);
  process.stdout.write("Requests and tokens: the last 5 hours.\n");
  return 0;
};

const GROUP_HEADER: Record<UsageGroup, string> = { agent: "AGENT", provider: "PROVIDER", model: "MODEL" };

export const usageCommand: Command = async (argv, context) => {
  const { values, positionals } = parseCommandArgs("usage", argv, { hours: { type: "string" }, by: { type: "string" } });
  takePositionals("usage", positionals, []);
  const query = valid(
    check(UsageQuery, {
      ...(values.hours === undefined ? {} : { hours: numberOrText(values.hours) }),
      ...(values.by === undefined ? {} : { by: values.by }),
    }, "usage"),
    "usage",
  );
  const view = await context.connection().client.usage(query);
  if (values.json) {
    printJson(view);
    return 0;
  }
  const by = query.by ?? "agent";
  const hours = query.hours ?? 5;
  if (view.rows.length === 0) {
    process.stdout.write(`Nothing went through the proxy in the last ${hours} h.\n`);
    return 0;
  }
  const rows = view.rows.map((row) => [
    (by === "agent" ? row.agent : by === "provider" ? row.providerId : row.model) ?? "-",
    String(row.requests),
    String(row.rateLimited),
    String(row.errors),
    ...tokenCells(row.tokens),
  ]);
  process.stdout.write(formatTable([GROUP_HEADER[by], "REQUESTS", "429S", "ERRORS", ...TOKEN_HEADERS], rows));
  process.stdout.write(`The last ${hours} h, by ${by}; input excludes cache reads, output includes reasoning.\n`);
  return 0;
};
