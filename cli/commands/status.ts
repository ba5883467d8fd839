// `headroom status`: the whole picture in one table, with notices a person should act on.
import type { ConcurrencyStatusEntry } from "../../shared/types";
import { parseCommandArgs, takePositionals } from "../args";
import { printJson, type Command } from "../command";
import { formatDuration } from "../duration";
import { formatTable } from "../table";

function pauseCell(entry: ConcurrencyStatusEntry, now: number): string {
  if (!entry.paused) return "-";
  return entry.pausedUntil === undefined ? "paused" : `${formatDuration(entry.pausedUntil - now)} left`;
}

function waitCell(entry: ConcurrencyStatusEntry): string {
  if (entry.waitP50Ms === undefined || entry.waitP95Ms === undefined) return "-";
  return `${formatDuration(entry.waitP50Ms)}/${formatDuration(entry.waitP95Ms)}`;
}

function noteCell(entry: ConcurrencyStatusEntry): string {
  const notes: string[] = [];
  if (entry.autoReduced) notes.push(`auto-reduced from ${entry.autoReducedFrom ?? "?"}`);
  const gate = entry.usageGate;
  if (gate) notes.push(gate.ok ? `upstream sessions ${gate.concurrentSessions ?? "?"}` : `usage gate: ${gate.error ?? "error"}`);
  return notes.join("; ");
}

export const statusCommand: Command = async (argv, context) => {
  const { values, positionals } = parseCommandArgs("status", argv, {});
  takePositionals("status", positionals, []);
  const status = await context.connection().client.status();
  if (values.json) {
    printJson(status);
    return 0;
  }
  const now = Date.now();
  if (status.providers.length === 0) {
    process.stdout.write("No providers yet. Add one with: headroom providers add <id> <limit>\n");
  } else {
    process.stdout.write(
      formatTable(
        ["PROVIDER", "ACTIVE", "QUEUED", "RECYCLING", "PAUSED", "COOLDOWN", "WAIT p50/p95", "NOTE"],
        status.providers.map((p) => [
          p.providerId,
          `${p.active}/${p.limit}`,
          String(p.queued),
          String(p.recycling),
          pauseCell(p, now),
          formatDuration(p.cooldownMs),
          waitCell(p),
          noteCell(p),
        ]),
      ),
    );
  }
  for (const p of status.providers) {
    if (p.autoReduced && p.notice && !p.noticeDismissed) {
      process.stdout.write(`\n! ${p.notice} (headroom limit ${p.providerId} ${p.autoReducedFrom ?? "<n>"})\n`);
    }
  }
  for (const notice of status.notices ?? []) process.stdout.write(`\n! ${notice}\n`);
  return 0;
};
