// `headroom cooldown <id> [<ms>]`: read or set how long a released slot rests.
import { checkCooldownMs } from "../../shared/validate";
import { numberOrText, parseCommandArgs, providerIdArg, takePositionals, valid } from "../args";
import { printJson, type Command } from "../command";

export const cooldownCommand: Command = async (argv, context) => {
  const { values, positionals } = parseCommandArgs("cooldown", argv, {});
  const [rawId, rawMs] = takePositionals("cooldown", positionals, ["id", "ms"], 1);
  const id = providerIdArg(rawId!, "cooldown");
  const cooldownMs = rawMs === undefined ? undefined : valid(checkCooldownMs(numberOrText(rawMs)), "cooldown");
  const { client } = context.connection();
  const view = cooldownMs === undefined ? await client.cooldown(id) : await client.setCooldown(id, cooldownMs);
  if (values.json) printJson(view);
  else if (cooldownMs === undefined) process.stdout.write(`${view.providerId}: cooldown ${view.cooldownMs} ms\n`);
  else process.stdout.write(`Cooldown for ${view.providerId} set to ${view.cooldownMs} ms.\n`);
  return 0;
};
