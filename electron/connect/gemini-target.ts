// Gemini CLI with an API key: GOOGLE_GEMINI_BASE_URL in ~/.gemini/.env, and the API-key auth
// type in ~/.gemini/settings.json when none is chosen. Gemini CLI reads the first .env it finds
// from the current folder upward and never overrides an exported variable, so what would
// bypass the connection is said, not changed.
import fs from "node:fs";
import path from "node:path";
import { readConfig } from "./config-file";
import { refuseOtherUrl } from "./conflict";
import { isOurs, providerIn, type AgentTarget, type ConnectContext, type FileEditPlan } from "./connect-types";
import { envValue, setEnv } from "./env-edit";
import { parseJson, setJson, valueAt } from "./json-edit";

const VARIABLE = "GOOGLE_GEMINI_BASE_URL";
const AUTH_TYPE = ["security", "auth", "selectedType"];
const GOOGLE_LOGINS = ["oauth-personal", "login-with-google", "cloud-shell"];

function files(ctx: ConnectContext): { env: string; settings: string } {
  const dir = geminiTarget.configDir(ctx);
  return { env: path.join(dir, ".env"), settings: path.join(dir, "settings.json") };
}

/** A project's .env that Gemini CLI would read before ~/.gemini/.env. */
function projectEnv(ctx: ConnectContext): string | undefined {
  let dir = path.resolve(ctx.cwd);
  for (;;) {
    if (dir === path.resolve(ctx.home)) return undefined;
    for (const candidate of [path.join(dir, ".gemini", ".env"), path.join(dir, ".env")]) {
      if (fs.existsSync(candidate)) return candidate;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Gemini CLI 0.61 reads ~/.gemini/.env only in a folder it trusts (folder trust is on by
 * default): elsewhere GOOGLE_GEMINI_BASE_URL is not read and requests go straight to Google.
 */
const TRUST_NOTE = `Gemini CLI reads ${VARIABLE} from ~/.gemini/.env only in folders it trusts (trusted in Gemini CLI, or GEMINI_CLI_TRUST_WORKSPACE=true, or security.folderTrust.enabled false); in an untrusted folder it bypasses Headroom.`;

function warnings(ctx: ConnectContext, settings: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (valueAt(settings, ["security", "folderTrust", "enabled"]) !== false && ctx.env.GEMINI_CLI_TRUST_WORKSPACE !== "true") out.push(TRUST_NOTE);
  const project = projectEnv(ctx);
  if (project) out.push(`Gemini CLI started in ${path.dirname(project)} reads ${project} instead of ~/.gemini/.env; add ${VARIABLE} there too, or it bypasses Headroom.`);
  const exported = ctx.env[VARIABLE];
  if (exported !== undefined && !isOurs(ctx, exported)) out.push(`${VARIABLE} is exported in this environment (${exported}) and wins over ~/.gemini/.env; unset it.`);
  const auth = valueAt(settings, AUTH_TYPE);
  if (typeof auth === "string" && GOOGLE_LOGINS.includes(auth)) out.push(`Gemini CLI signs in with Google (${auth}), which bypasses ${VARIABLE}; choose "Use Gemini API key" in /auth.`);
  return out;
}

export const geminiTarget: AgentTarget = {
  agent: "gemini",
  command: "gemini",
  configDir: (ctx) => path.join(ctx.home, ".gemini"),
  plan(ctx, options) {
    const { env, settings } = files(ctx);
    const envBefore = readConfig(env);
    const settingsBefore = readConfig(settings);
    const current = parseJson(settings, settingsBefore);
    refuseOtherUrl(ctx, env, VARIABLE, envValue(envBefore, VARIABLE), options.replace);
    const provider = options.provider ?? "gemini";
    const baseUrl = `${ctx.proxyUrl}/${provider}`;
    const envAfter = envValue(envBefore, VARIABLE) === baseUrl ? (envBefore ?? "") : setEnv(envBefore, VARIABLE, baseUrl);
    const setsAuth = valueAt(current, AUTH_TYPE) === undefined;
    const edits: FileEditPlan[] = [{ path: env, before: envBefore, after: envAfter, owned: { kind: "env", names: [VARIABLE] } }];
    if (setsAuth) {
      edits.push({ path: settings, before: settingsBefore, after: setJson(settingsBefore, AUTH_TYPE, "gemini-api-key"), owned: { kind: "json", paths: [AUTH_TYPE] } });
    }
    return { agent: "gemini", provider, baseUrl, edits, notes: warnings(ctx, current) };
  },
  state(ctx) {
    const { env, settings } = files(ctx);
    let url: string | undefined;
    let current: Record<string, unknown> = {};
    try {
      url = envValue(readConfig(env), VARIABLE);
      current = parseJson(settings, readConfig(settings));
    } catch {
      // An unreadable file is reported by connect and doctor; here it is just "not connected".
    }
    const provider = providerIn(ctx, url);
    return { connected: isOurs(ctx, url), ...(provider ? { provider } : {}), files: [env, settings], warnings: warnings(ctx, current) };
  },
};
