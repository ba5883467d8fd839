// What `headroom status` and `headroom providers` print, as pure functions of the host's
// answers, so the wording is tested without a host.
import type { ConcurrencyStatusEntry, ConcurrencyStatusResponse, ProviderConfigView } from "../shared/types";
import { formatDuration, formatRemaining } from "../shared/duration";
import { formatTable } from "./table";

const NO_PROVIDERS = "No providers yet. Add one with: headroom providers add <id> <limit>\n";

function pauseCell(entry: ConcurrencyStatusEntry, now: number): string {
  if (!entry.paused) return "-";
  return entry.pausedUntil === undefined ? "paused" : `${formatRemaining(entry.pausedUntil - now)} left`;
}

function waitCell(entry: ConcurrencyStatusEntry): string {
  if (entry.waitP50Ms === undefined || entry.waitP95Ms === undefined) return "-";
  return `${formatDuration(entry.waitP50Ms)}/${formatDuration(entry.waitP95Ms)}`;
}

const hostCount = (hosts: number) => `${hosts} ${hosts === 1 ? "host" : "hosts"}`;

/** `shared, 3 hosts` for a provider shared across machines (SPEC §7); undefined for a local one. */
function sharedText(entry: ConcurrencyStatusEntry): string | undefined {
  if (!entry.shared) return undefined;
  return entry.hosts === undefined ? "shared" : `shared, ${hostCount(entry.hosts)}`;
}

function noteCell(entry: ConcurrencyStatusEntry): string {
  const notes: string[] = [];
  const shared = sharedText(entry);
  if (shared) notes.push(shared);
  if (entry.autoReduced) notes.push(`auto-reduced from ${entry.autoReducedFrom ?? "?"}`);
  const gate = entry.usageGate;
  if (gate) notes.push(gate.ok ? `upstream sessions ${gate.concurrentSessions ?? "?"}` : `usage gate: ${gate.error ?? "error"}`);
  return notes.join("; ");
}

/** Why agents wait when it is not obvious (e.g. Redis unreachable), one `!` line per provider. */
function waitReasonLines(entries: readonly ConcurrencyStatusEntry[]): string {
  return entries
    .filter((entry) => entry.waitReason)
    .map((entry) => `\n! ${entry.providerId}: ${entry.waitReason}\n`)
    .join("");
}

/** Only for a host with Redis configured (SPEC §7). */
function redisLine(status: ConcurrencyStatusResponse): string {
  const redis = status.redis;
  if (!redis) return "";
  if (redis.connected) return "\nRedis connected: shared providers hold their limits across machines.\n";
  const why = redis.error ? ` (${redis.error})` : "";
  return `\n! Redis unreachable${why}: shared providers wait until it answers.\n`;
}

export function formatStatus(status: ConcurrencyStatusResponse, now: number): string {
  let text =
    status.providers.length === 0
      ? NO_PROVIDERS
      : formatTable(
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
        );
  text += waitReasonLines(status.providers);
  for (const p of status.providers) {
    // SPEC §9: a daily budget, and while it pauses the provider, why and what lifts it.
    if (p.budget && p.pauseKind === "budget") text += `\n! ${p.providerId}: ${p.pauseReason ?? "daily budget reached"} (headroom resume ${p.providerId})\n`;
    else if (p.budget) text += `\n${p.providerId}: $${p.budget.spentUsd.toFixed(2)} of its $${p.budget.dailyUsd.toFixed(2)} daily budget spent today\n`;
    if (p.autoReduced && p.notice && !p.noticeDismissed) {
      text += `\n! ${p.notice} (headroom limit ${p.providerId} ${p.autoReducedFrom ?? "<n>"})\n`;
    }
  }
  for (const notice of status.notices ?? []) text += `\n! ${notice}\n`;
  return text + redisLine(status);
}

/** `headroom providers`: each provider's settings, and whether it is shared and by how many hosts. */
export function formatProviders(configs: readonly ProviderConfigView[], entries: readonly ConcurrencyStatusEntry[]): string {
  if (configs.length === 0) return NO_PROVIDERS;
  const entryOf = (id: string) => entries.find((entry) => entry.providerId === id);
  const table = formatTable(
    ["PROVIDER", "LIMIT", "COOLDOWN", "UPSTREAM", "USAGE GATE", "SHARED"],
    configs.map((c) => {
      const entry = entryOf(c.providerId);
      return [
        c.providerId,
        String(c.limit),
        formatDuration(c.cooldownMs),
        c.upstream ?? "-",
        c.usageGate ? `${c.usageGate.url} every ${formatDuration(c.usageGate.pollMs)}` : "-",
        sharedCell(c, entry),
      ];
    }),
  );
  return table + waitReasonLines(entries);
}

function sharedCell(config: ProviderConfigView, entry: ConcurrencyStatusEntry | undefined): string {
  if (!config.shared && !entry?.shared) return "-";
  return entry?.hosts === undefined ? "yes" : `yes, ${hostCount(entry.hosts)}`;
}
