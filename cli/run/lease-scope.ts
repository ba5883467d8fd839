// A base URL at this host's proxy for the provider, moved under the run's lease
// (`…/openai/v1` → `…/openai/_lease/<leaseId>/v1`, SPEC §6), wherever the agent reads it: an
// environment variable, or a flag of the command (`--openai-api-base <url>` or `=<url>`).

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "[::1]"]);
/** aider's flags (its variables OPENAI_API_BASE and ANTHROPIC_API_BASE are read as variables). */
const BASE_URL_FLAGS = ["--openai-api-base", "--anthropic-api-base"];

/** Same proxy: same port on a loopback name (127.0.0.1 and localhost are one machine). */
function sameProxy(a: URL, b: URL): boolean {
  return a.protocol === b.protocol && a.port === b.port && LOOPBACK_NAMES.has(a.hostname) && LOOPBACK_NAMES.has(b.hostname);
}

/** `…/<id>/v1` → `…/<id>/_lease/<leaseId>/v1`, or undefined when `value` is not the proxy's URL for the provider. */
export function scopeToLease(value: string, proxyUrl: string, providerId: string, leaseId: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (!sameProxy(url, new URL(proxyUrl))) return undefined;
  const prefix = `/${providerId}`;
  if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return undefined;
  if (url.pathname.startsWith(`${prefix}/_lease/`)) return undefined; // already scoped (a nested run keeps its own)
  url.pathname = `${prefix}/_lease/${encodeURIComponent(leaseId)}${url.pathname.slice(prefix.length)}`;
  return url.toString();
}

type Command = [string, ...string[]];

const flagOf = (arg: string) => BASE_URL_FLAGS.find((name) => arg === name || arg.startsWith(`${name}=`));

/** True when the command takes a base URL by flag (before any `--` of its own). */
export function hasBaseUrlFlag(command: Command): boolean {
  const end = command.indexOf("--", 1);
  return command.slice(1, end === -1 ? undefined : end).some((arg) => flagOf(arg) !== undefined);
}

/**
 * The command with each base-URL flag's value passed through `scope` (kept when it answers
 * undefined). The same array when nothing changed. Arguments after a `--` of the command's own
 * are its operands, not flags, and are left alone; so is the command's name.
 */
export function scopeFlags(command: Command, scope: (value: string) => string | undefined): Command {
  let changed = false;
  const out: Command = [command[0], ...command.slice(1)];
  for (let i = 1; i < out.length; i++) {
    const arg = out[i]!;
    if (arg === "--") break;
    const flag = flagOf(arg);
    if (flag === undefined) continue;
    const inline = arg.length > flag.length;
    const at = inline ? i : i + 1;
    const value = inline ? arg.slice(flag.length + 1) : out[at];
    if (value === undefined) continue;
    const scoped = scope(value);
    if (!inline) i++;
    if (scoped === undefined || scoped === value) continue;
    out[at] = inline ? `${flag}=${scoped}` : scoped;
    changed = true;
  }
  return changed ? out : command;
}

const LEASE_HEADER_LINE = /^\s*x-headroom-lease\s*:/i;

/**
 * Claude Code's ANTHROPIC_CUSTOM_HEADERS (`Name: value` lines) with the run's lease added (SPEC
 * §10): `connect` puts ANTHROPIC_BASE_URL in settings.json, which wins over the environment,
 * so the header is how its requests find the lease. The user's own lines stay, in order; an
 * outer run's lease line gives way, since one header sent twice would name no lease at all.
 */
export function withLeaseHeader(existing: string | undefined, leaseId: string): string {
  const kept = (existing ?? "").split(/\r?\n/).filter((line) => line.trim() !== "" && !LEASE_HEADER_LINE.test(line));
  return [...kept, `x-headroom-lease: ${leaseId}`].join("\n");
}
