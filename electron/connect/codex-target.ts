// Codex: `model_provider = "headroom"` (top level) and a `[model_providers.headroom]` table in
// $CODEX_HOME/config.toml (default ~/.codex). `env_http_headers` lets `headroom run -- codex`
// ride its own lease instead of taking a second slot.
import fs from "node:fs";
import path from "node:path";
import { readConfig } from "./config-file";
import { ConnectError } from "./connect-error";
import { refuseOtherUrl } from "./conflict";
import { isOurs, providerIn, type AgentTarget, type ConnectContext } from "./connect-types";
import { parseToml, setTomlKeyAndTable } from "./toml-edit";

const ENTRY = "headroom";
const TABLE = `model_providers.${ENTRY}`;

function configFile(ctx: ConnectContext): string {
  return path.join(codexTarget.configDir(ctx), "config.toml");
}

/** What auth.json says: a ChatGPT login holds tokens; an API key does not. */
function authOf(ctx: ConnectContext): { exists: boolean; chatgpt: boolean } {
  try {
    const auth = JSON.parse(fs.readFileSync(path.join(codexTarget.configDir(ctx), "auth.json"), "utf8")) as { tokens?: unknown };
    return { exists: true, chatgpt: typeof auth.tokens === "object" && auth.tokens !== null };
  } catch (error) {
    return { exists: (error as NodeJS.ErrnoException).code !== "ENOENT", chatgpt: false };
  }
}

function entryOf(config: Record<string, unknown>): Record<string, unknown> | undefined {
  const providers = config.model_providers as Record<string, Record<string, unknown>> | undefined;
  return providers?.[ENTRY];
}

export const codexTarget: AgentTarget = {
  agent: "codex",
  command: "codex",
  configDir: (ctx) => ctx.env.CODEX_HOME || path.join(ctx.home, ".codex"),
  plan(ctx, options) {
    const file = configFile(ctx);
    const before = readConfig(file);
    const config = parseToml(file, before);
    const current = config.model_provider;
    if (current !== undefined && current !== ENTRY) {
      const other = (config.model_providers as Record<string, { base_url?: unknown }> | undefined)?.[String(current)];
      refuseOtherUrl(ctx, file, `model_provider (${String(current)})`, other?.base_url ?? String(current), options.replace);
    }
    const auth = authOf(ctx);
    const chatgpt = options.login ? options.login === "chatgpt" : auth.chatgpt;
    const provider = options.provider ?? (chatgpt ? "chatgpt" : "openai");
    const baseUrl = chatgpt ? `${ctx.proxyUrl}/${provider}` : `${ctx.proxyUrl}/${provider}/v1`;
    const body = [
      `name = "Headroom"`,
      `base_url = "${baseUrl}"`,
      `wire_api = "responses"`,
      auth.exists ? `requires_openai_auth = true` : `env_key = "OPENAI_API_KEY"`,
      `env_http_headers = { "x-headroom-lease" = "HEADROOM_LEASE_ID" }`,
    ];
    const after = setTomlKeyAndTable(before, "model_provider", `"${ENTRY}"`, TABLE, body);
    const check = parseToml(`${file} (as Headroom would write it)`, after);
    if (check.model_provider !== ENTRY || entryOf(check)?.base_url !== baseUrl) {
      throw new ConnectError("config_unparsable", `Headroom could not edit ${file} safely; nothing was changed. Add the lines of docs/connect.md by hand.`);
    }
    const profiles = Object.entries((config.profiles ?? {}) as Record<string, { model_provider?: unknown }>)
      .filter(([, profile]) => profile.model_provider !== undefined && profile.model_provider !== ENTRY)
      .map(([name, profile]) => `Codex profile ${name} sets its own model_provider (${String(profile.model_provider)}); left unchanged, so \`codex --profile ${name}\` does not go through Headroom.`);
    return {
      agent: "codex",
      provider,
      baseUrl,
      edits: [{ path: file, before, after, owned: { kind: "codex-toml" } }],
      notes: [...profiles, ...(chatgpt ? [`Codex signs in with ChatGPT here: its requests go to provider ${provider}.`] : [])],
    };
  },
  state(ctx) {
    const file = configFile(ctx);
    let url: unknown;
    try {
      const config = parseToml(file, readConfig(file));
      url = config.model_provider === ENTRY ? entryOf(config)?.base_url : undefined;
    } catch {
      url = undefined;
    }
    const provider = providerIn(ctx, url);
    return { connected: isOurs(ctx, url), ...(provider ? { provider } : {}), files: [file], warnings: [] };
  },
};
