// `headroom resume <id>`: lift a rate-limit pause by hand.
import { parseCommandArgs, providerIdArg, takePositionals } from "../args";
import { printJson, type Command } from "../command";

export const resumeCommand: Command = async (argv, context) => {
  const { values, positionals } = parseCommandArgs("resume", argv, {});
  const [rawId] = takePositionals("resume", positionals, ["id"]);
  const entry = await context.connection().client.resume(providerIdArg(rawId!, "resume"));
  if (values.json) printJson(entry);
  else {
    process.stdout.write(
      `${entry.providerId} is admitting again: ${entry.active}/${entry.limit} active, ${entry.queued} queued.\n`,
    );
  }
  return 0;
};
