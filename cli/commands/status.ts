// `headroom status`: the whole picture in one table, with notices a person should act on.
import { parseCommandArgs, takePositionals } from "../args";
import { printJson, type Command } from "../command";
import { formatStatus } from "../status-text";

export const statusCommand: Command = async (argv, context) => {
  const { values, positionals } = parseCommandArgs("status", argv, {});
  takePositionals("status", positionals, []);
  const status = await context.connection().client.status();
  if (values.json) printJson(status);
  else process.stdout.write(formatStatus(status, Date.now()));
  return 0;
};
