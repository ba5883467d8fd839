// opencode: `provider.anthropic.options.baseURL` (or `provider.openai…` for --provider openai)
// in the existing opencode.jsonc / opencode.json / config.json under $XDG_CONFIG_HOME/opencode.
import fs from "node:fs";
import path from "node:path";
import { readConfig } from "./config-file";
import { refuseOtherUrl } from "./conflict";
import { isOurs, providerIn, type AgentTarget, type ConnectContext } from "./connect-types";
import { parseJson, setJson, valueAt } from "./json-edit";

const SCHEMA = "https://opencode.ai/config.json";
const NAMES = ["opencode.jsonc", "opencode.json", "config.json"];

function configFile(ctx: ConnectContext): string {
  const dir = opencodeTarget.configDir(ctx);
  const existing = NAMES.map((name) => path.join(dir, name)).find((file) => fs.existsSync(file));
  return existing ?? path.join(dir, "opencode.json");
}

/** opencode's own provider entry that carries the base URL. */
function entryFor(provider: string): "anthropic" | "openai" {
  return provider === "openai" ? "openai" : "anthropic";
}

export const opencodeTarget: AgentTarget = {
  agent: "opencode",
  command: "opencode",
  configDir: (ctx) => path.join(ctx.env.XDG_CONFIG_HOME || path.join(ctx.home, ".config"), "opencode"),
  plan(ctx, options) {
    const file = configFile(ctx);
    const before = readConfig(file);
    const current = parseJson(file, before);
    const provider = options.provider ?? "anthropic";
    const key = ["provider", entryFor(provider), "options", "baseURL"];
    refuseOtherUrl(ctx, file, key.join("."), valueAt(current, key), options.replace);
    const baseUrl = `${ctx.proxyUrl}/${provider}/v1`;
    // A file Headroom creates starts with the "$schema" opencode 1.18 inserts into any config
    // lacking it: otherwise opencode's own first run changes the file, and disconnect could no
    // longer tell it is untouched and delete it.
    const start = before === undefined || before.trim() === "" ? setJson(before, ["$schema"], SCHEMA) : before;
    const after = valueAt(current, key) === baseUrl ? (before ?? "") : setJson(start, key, baseUrl);
    return { agent: "opencode", provider, baseUrl, edits: [{ path: file, before, after, owned: { kind: "json", paths: [key] } }], notes: [] };
  },
  state(ctx) {
    const file = configFile(ctx);
    let url: unknown;
    try {
      const current = parseJson(file, readConfig(file));
      url = [valueAt(current, ["provider", "anthropic", "options", "baseURL"]), valueAt(current, ["provider", "openai", "options", "baseURL"])].find((u) => isOurs(ctx, u));
    } catch {
      url = undefined;
    }
    const provider = providerIn(ctx, url);
    return { connected: isOurs(ctx, url), ...(provider ? { provider } : {}), files: [file], warnings: [] };
  },
};
