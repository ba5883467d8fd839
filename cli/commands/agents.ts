// `headroom agents` and `headroom usage [--hours N | --days N] [--by agent|provider|model|project|day|hour]`
// (SPEC §9): who is around now, and what each agent, provider, model, project or day used and cost.
import type { TokenCounts, UsageGroup, UsageRow } from "../../shared/agents";
import { UsageQuery, usageSpanConflict } from "../../shared/agents";
import { check } from "../../shared/check";
import { API_EQUIVALENT, costText } from "../../shared/cost-words";
import { UsageError } from "../exit-codes";
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

/**
 * SPEC §9: the COST column says `API-equiv.` in its header when every row is on a plan; when only
 * some are, those rows say it in their own cell, so no figure passes for a bill it is not.
 */
function costColumn(rows: readonly { costUsd: number; unpriced: number; apiEquivalent?: true }[]): { header: string; cells: string[] } {
  const all = rows.length > 0 && rows.every((row) => row.apiEquivalent);
  return {
    header: all ? "COST (API-equiv.)" : "COST",
    cells: rows.map((row) => (row.apiEquivalent && !all ? `${costText(row)} ${API_EQUIVALENT}` : costText(row))),
  };
}

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
  const cost = costColumn(view.agents);
  const rows = view.agents.map((agent, i) => [
    agent.label,
    agent.providerId,
    agent.state === "waiting" && agent.position !== undefined ? `waiting #${agent.position}` : agent.state,
    agent.state === "idle" ? `${formatDuration(Math.max(0, now - agent.lastSeenAt))} ago` : "now",
    agent.pid === undefined ? "-" : String(agent.pid),
    String(agent.requests),
    ...tokenCells(agent.tokens),
    cost.cells[i]!,
  ]);
  process.stdout.write(formatTable(["AGENT", "PROVIDER", "STATE", "SEEN", "PID", "REQUESTS", ...TOKEN_HEADERS, cost.header], rows));
  if (view.omitted) process.stdout.write(`And ${view.omitted} more seen in the last hour, not shown: a snapshot carries the ${view.agents.length} seen last.\n`);
  process.stdout.write("Requests, tokens and cost: in each provider's plan window when known, else the last 5 hours.\n");
  return 0;
};

const GROUP_HEADER: Record<UsageGroup, string> = { agent: "AGENT", provider: "PROVIDER", model: "MODEL", project: "PROJECT", day: "DAY", hour: "HOUR" };

function groupCell(row: UsageRow, by: UsageGroup): string {
  if (by === "hour") return row.hour === undefined ? "-" : new Date(row.hour).toLocaleString([], { month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" });
  const name = by === "provider" ? row.providerId : row[by];
  return name ?? "-";
}

export const usageCommand: Command = async (argv, context) => {
  const { values, positionals } = parseCommandArgs("usage", argv, { hours: { type: "string" }, days: { type: "string" }, by: { type: "string" } });
  takePositionals("usage", positionals, []);
  const query = valid(
    check(UsageQuery, {
      ...(values.hours === undefined ? {} : { hours: numberOrText(values.hours) }),
      ...(values.days === undefined ? {} : { days: numberOrText(values.days) }),
      ...(values.by === undefined ? {} : { by: values.by }),
    }, "usage"),
    "usage",
  );
  const conflict = usageSpanConflict(query);
  if (conflict !== undefined) throw new UsageError(conflict, "usage");
  const view = await context.connection().client.usage(query);
  if (values.json) {
    printJson(view);
    return 0;
  }
  const by = query.by ?? "agent";
  const span = query.days === undefined ? `the last ${query.hours ?? 5} h` : query.days === 1 ? "today" : query.days === 2 ? "today and the day before" : `today and the ${query.days - 1} days before`;
  if (view.rows.length === 0) {
    process.stdout.write(`Nothing went through the proxy ${query.days === undefined ? "in " : ""}${span}.\n`);
    return 0;
  }
  const cost = costColumn(view.rows);
  const rows = view.rows.map((row, i) => [
    groupCell(row, by),
    String(row.requests),
    String(row.rateLimited),
    String(row.errors),
    ...tokenCells(row.tokens),
    cost.cells[i]!,
  ]);
  process.stdout.write(formatTable([GROUP_HEADER[by], "REQUESTS", "429S", "ERRORS", ...TOKEN_HEADERS, cost.header], rows));
  const said = span.charAt(0).toUpperCase() + span.slice(1);
  process.stdout.write(`${said}, by ${by}; input excludes cache reads, output includes reasoning.\n`);
  if (view.rows.some((row) => row.apiEquivalent)) process.stdout.write(`${API_EQUIVALENT}: on a plan, what the same tokens would cost on the API.\n`);
  if (view.rows.some((row) => row.unpriced > 0)) process.stdout.write("Unpriced: requests to a model the price library does not know; their tokens count, their cost does not.\n");
  return 0;
};
