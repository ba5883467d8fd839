// `headroom providers [add <id|preset> [<limit>] [--upstream <url>] | remove <id> | upstream <id> <url|none> | share <id> |
// unshare <id> | <verb> <id> <value>]`, a verb for each plain setting (`hold`, `wait-for-reset`, `overage`, `budget`, `timeout`).
import { ApiError, type ApiClient } from "../../shared/api-client";
import { SETTINGS, SETTING_NAMES, type SettingName } from "../../shared/provider-settings";
import { argumentOf, canBeOff, shownValue, type Setting } from "../../shared/setting";
import { checkLimit, checkProviderConfigBody } from "../../shared/validate";
import { PRESETS, presetOf } from "../../shared/presets";
import { parseDuration } from "../duration";
import { numberOrText, parseCommandArgs, providerIdArg, takePositionals, valid } from "../args";
import { printJson, type Command } from "../command";
import { UsageError } from "../exit-codes";
import { formatProviders } from "../status-text";

const NAME = "providers";

async function list(client: ApiClient, json: boolean): Promise<void> {
  const { providers } = await client.status();
  const configs = await Promise.all(providers.map((p) => client.provider(p.providerId)));
  if (json) printJson({ providers: configs });
  else process.stdout.write(formatProviders(configs, providers));
}

/** SPEC §7: a host without Redis answers `shared: true` with a 400 that names HEADROOM_REDIS_URL. */
async function setShared(client: ApiClient, id: string, shared: boolean, json: boolean): Promise<void> {
  const view = await client.setProvider(id, { shared });
  if (json) printJson(view);
  else if (view.shared) process.stdout.write(`${id} is shared now: every host on the same Redis keeps one limit and one queue for it.\n`);
  else process.stdout.write(`${id} is local to this host now.\n`);
}

async function exists(client: ApiClient, id: string): Promise<boolean> {
  try {
    await client.limit(id);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.code === "unknown_provider") return false;
    throw error;
  }
}

export const providersCommand: Command = async (argv, context) => {
  const { values, positionals } = parseCommandArgs(NAME, argv, { upstream: { type: "string" } });
  const [action, ...rest] = positionals;
  const json = values.json === true;

  switch (action) {
    case undefined:
      await list(context.connection().client, json);
      return 0;
    case "add": {
      const [rawId, rawLimit] = takePositionals(NAME, rest, ["id", "limit"], 1);
      const id = providerIdArg(rawId!, NAME);
      // SPEC §10: a preset's id without a limit takes the preset's limit and upstream.
      const preset = presetOf(id);
      if (rawLimit === undefined && !preset) {
        throw new UsageError(`missing <limit>; without one, <id> must be a preset: ${PRESETS.map((p) => p.id).join(", ")}`, NAME);
      }
      const limit = rawLimit === undefined ? preset!.limit : valid(checkLimit(numberOrText(rawLimit)), NAME);
      const upstream = values.upstream ?? (rawLimit === undefined ? preset?.upstream : undefined);
      const patch = upstream === undefined ? undefined : valid(checkProviderConfigBody({ upstream }), NAME);
      const { client } = context.connection();
      const existed = await exists(client, id);
      const view = await client.setLimit(id, limit);
      const config = patch ? await client.setProvider(id, patch) : undefined;
      if (json) printJson(config ?? view);
      else process.stdout.write(`${existed ? "Updated" : "Added"} ${view.providerId} with limit ${view.limit}${config?.upstream ? `, forwarding to ${config.upstream}` : ""}.\n`);
      return 0;
    }
    case "remove": {
      const [rawId] = takePositionals(NAME, rest, ["id"]);
      const id = providerIdArg(rawId!, NAME);
      const answer = await context.connection().client.removeProvider(id);
      if (json) printJson(answer);
      else process.stdout.write(`Removed ${id}.\n`);
      return 0;
    }
    case "upstream": {
      const [rawId, rawUrl] = takePositionals(NAME, rest, ["id", "url|none"]);
      const id = providerIdArg(rawId!, NAME);
      const patch = valid(checkProviderConfigBody({ upstream: rawUrl === "none" ? null : rawUrl }), NAME);
      const view = await context.connection().client.setProvider(id, patch);
      if (json) printJson(view);
      else if (view.upstream) process.stdout.write(`${id} now forwards to ${view.upstream} through the gating proxy.\n`);
      else process.stdout.write(`${id} has no upstream now.\n`);
      return 0;
    }
    case "share":
    case "unshare": {
      const [rawId] = takePositionals(NAME, rest, ["id"]);
      await setShared(context.connection().client, providerIdArg(rawId!, NAME), action === "share", json);
      return 0;
    }
    default: {
      const name = SETTING_NAMES.find((key) => SETTINGS[key].words.verb === action);
      if (name === undefined) {
        const verbs = ["add", "remove", "upstream", ...SETTING_NAMES.map((key) => SETTINGS[key].words.verb), "share", "unshare"];
        throw new UsageError(`unknown action ${JSON.stringify(action)}: use ${verbs.join(", ")}`, NAME);
      }
      await setSetting(context.connection, name, rest, json);
      return 0;
    }
  }
};

/** `headroom providers <verb> <id> <value>`, for every plain setting (shared/provider-settings.ts SETTINGS). */
async function setSetting(connection: () => { client: ApiClient }, name: SettingName, rest: string[], json: boolean): Promise<void> {
  const item: Setting = SETTINGS[name];
  const [rawId, rawValue] = takePositionals(NAME, rest, ["id", argumentOf(item)]);
  const id = providerIdArg(rawId!, NAME);
  const patch = valid(checkProviderConfigBody({ [name]: typedValue(item, rawValue!) }), NAME);
  const view = await connection().client.setProvider(id, patch);
  if (json) printJson(view);
  else {
    const shown = shownValue(item, view[name]);
    process.stdout.write(`${id} ${shown === "off" ? item.words.offText : item.words.on(shown)}.\n`);
  }
}

/** As typed: `off`, `90%`, `$20`, `2m` (a bare duration is seconds); what is not a value is passed on, so the refusal names it. */
function typedValue(item: Setting, raw: string): unknown {
  const text = raw.trim();
  if (text === "off" && canBeOff(item)) return item.off ?? null;
  if (item.control === "choice") return text;
  if (item.control === "duration") return parseDuration(text) ?? text;
  return numberOrText(text.replace(/^\$/, "").replace(/%$/, ""));
}
