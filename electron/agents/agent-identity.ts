// Who an agent is (SPEC §9), decided in this order: the lease's agent (API, `headroom run
// --agent`), the `x-headroom-agent` header, the local process that opened the connection, the
// user-agent's product, else `unknown`. Whatever names it, a known process adds its folder to
// the label (`claude · ~/src/api`) and its pid to the key, which lives as long as the process.
import { tame } from "../../shared/tame";

export interface LocalProcess {
  pid: number;
  command: string;
  cwd?: string;
}

export interface AgentIdentity {
  key: string;
  label: string;
  /** What the order above chose, without the folder: the name the agent's leases carry. */
  name: string;
  pid?: number;
  command?: string;
  cwd?: string;
  /** The folder, `~`-shortened: the project its usage counts under (SPEC §9). */
  project?: string;
  userAgent?: string;
}

export interface IdentityClues {
  leaseAgent?: string;
  header?: string;
  process?: LocalProcess;
  userAgent?: string;
  /** The user's home folder, shown as `~`. */
  home?: string;
}

/** The product of a user-agent: `claude-cli/1.0.30 (external, cli)` → `claude-cli`. */
export function userAgentProduct(userAgent: string): string | undefined {
  const product = /^\s*([^\s/()]+)/.exec(userAgent)?.[1];
  return product === undefined ? undefined : tame(product);
}

function shortFolder(cwd: string, home?: string): string {
  if (home && home !== "/" && (cwd === home || cwd.startsWith(`${home}/`))) return `~${cwd.slice(home.length)}`;
  return cwd;
}

const present = (text: string | undefined) => (text === undefined || text.trim() === "" ? undefined : tame(text.trim()));

export function identify(clues: IdentityClues): AgentIdentity {
  const command = present(clues.process?.command);
  const cwd = present(clues.process?.cwd);
  const userAgent = present(clues.userAgent);
  const name =
    present(clues.leaseAgent) ??
    present(clues.header) ??
    command ??
    (userAgent === undefined ? undefined : userAgentProduct(userAgent)) ??
    "unknown";
  const project = cwd === undefined ? undefined : tame(shortFolder(cwd, clues.home));
  const label = project === undefined ? name : tame(`${name} · ${project}`);
  const pid = clues.process?.pid;
  return {
    key: pid === undefined ? label : `${label} #${pid}`,
    label,
    name,
    ...(pid === undefined ? {} : { pid }),
    ...(command === undefined ? {} : { command }),
    ...(cwd === undefined ? {} : { cwd }),
    ...(project === undefined ? {} : { project }),
    ...(userAgent === undefined ? {} : { userAgent }),
  };
}
