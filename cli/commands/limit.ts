// `headroom limit [<id> [<n>]]`: read or set a provider's concurrency limit; `headroom limit <id>
// --keep` accepts an automatic reduction (SPEC §1 "Accept").
import { checkLimit } from "../../shared/validate";
import { numberOrText, parseCommandArgs, providerIdArg, takePositionals, valid } from "../args";
import { printJson, type Command } from "../command";
import { UsageError } from "../exit-codes";
import { formatTable } from "../table";

export const limitCommand: Command = async (argv, context) => {
  const { values, positionals } = parseCommandArgs("limit", argv, { keep: { type: "boolean" } });
  const [rawId, rawLimit] = takePositionals("limit", positionals, ["id", "n"], 0);
  const id = rawId === undefined ? undefined : providerIdArg(rawId, "limit");
  const limit = rawLimit === undefined ? undefined : valid(checkLimit(numberOrText(rawLimit)), "limit");
  const { client } = context.connection();
  if (values.keep) {
    if (id === undefined || limit !== undefined) throw new UsageError("--keep takes a provider id and no limit", "limit");
    const entry = await client.acceptNotice(id);
    if (values.json) printJson(entry);
    else process.stdout.write(`Limit for ${entry.providerId} kept at ${entry.limit}; the reduction notice is cleared.\n`);
    return 0;
  }

  if (id === undefined) {
    const { limits } = await client.limits();
    if (values.json) printJson({ limits });
    else if (limits.length === 0) process.stdout.write("No providers yet. Add one with: headroom providers add <id> <limit>\n");
    else process.stdout.write(formatTable(["PROVIDER", "LIMIT"], limits.map((l) => [l.providerId, String(l.limit)])));
    return 0;
  }
  // Setting a limit through the API creates a missing provider; a typo here should not, so
  // the provider must exist first (the 404 lists the known ones) and `providers add` creates.
  const current = await client.limit(id);
  const view = limit === undefined ? current : await client.setLimit(id, limit);
  if (values.json) printJson(view);
  else if (limit === undefined) process.stdout.write(`${view.providerId}: limit ${view.limit}\n`);
  else process.stdout.write(`Limit for ${view.providerId} set to ${view.limit} (was ${current.limit}).\n`);
  return 0;
};
