// `headroom routes [reset <target> <runtime> <model>]`: the route circuit breakers.
import { checkRouteKeyBody } from "../../shared/validate";
import { parseCommandArgs, takePositionals, valid } from "../args";
import { printJson, type Command } from "../command";
import { formatDuration, formatRemaining } from "../../shared/duration";
import { UsageError } from "../exit-codes";
import { formatTable } from "../table";

const NAME = "routes";

export const routesCommand: Command = async (argv, context) => {
  const { values, positionals } = parseCommandArgs(NAME, argv, {});
  const [action, ...rest] = positionals;

  if (action === "reset") {
    const [targetId, runtimeId, modelId] = takePositionals(NAME, rest, ["target", "runtime", "model"]);
    const route = valid(checkRouteKeyBody({ targetId, runtimeId, modelId }), NAME);
    const entry = await context.connection().client.routeReset(route);
    if (values.json) printJson(entry);
    else process.stdout.write(`Route ${entry.targetId} / ${entry.runtimeId} / ${entry.modelId} is ${entry.state}.\n`);
    return 0;
  }
  if (action !== undefined) throw new UsageError(`unknown action ${JSON.stringify(action)}: use reset`, NAME);

  const view = await context.connection().client.routes();
  if (values.json) {
    printJson(view);
    return 0;
  }
  const { threshold, cooldownMs } = view.settings;
  const breaker =
    cooldownMs === 0
      ? "Breaker disabled (cooldown 0)."
      : `Breaker: opens after ${threshold} consecutive failure${threshold === 1 ? "" : "s"} for ${formatDuration(cooldownMs)}.`;
  if (view.routes.length === 0) {
    process.stdout.write(`No routes have reported yet. ${breaker}\n`);
    return 0;
  }
  process.stdout.write(
    formatTable(
      ["TARGET", "RUNTIME", "MODEL", "STATE", "REMAINING", "FAILURES", "REASON"],
      view.routes.map((r) => [
        r.targetId,
        r.runtimeId,
        r.modelId,
        r.state,
        r.remainingMs > 0 ? formatRemaining(r.remainingMs) : "-",
        String(r.consecutiveFailures),
        r.reason || "-",
      ]),
    ) + `\n${breaker}\n`,
  );
  return 0;
};
