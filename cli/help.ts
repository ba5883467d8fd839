// What `headroom --help` and `headroom <command> --help` print.
import { SETTINGS, SETTING_NAMES, type SettingName } from "../shared/provider-settings";
import { argumentOf, rangeOf, shownValue, type Setting } from "../shared/setting";

/** One plain setting's paragraph: its verb, what it does, its bounds and default (shared/provider-settings.ts). */
function settingHelp(name: SettingName): string {
  const item: Setting = SETTINGS[name];
  const range = rangeOf(item);
  const bounds = item.control === "choice" ? "" : ` (${shownValue(item, range.min)} to ${shownValue(item, range.max)})`;
  const byDefault = item.implied === undefined ? "off by default" : `default ${shownValue(item, item.implied)}`;
  return `${item.words.verb}: ${item.words.label.toLowerCase()}${bounds}, ${byDefault}. ${item.words.help}`;
}
const ENVIRONMENT = `Environment:
  HEADROOM_URL       the host's API (default http://127.0.0.1:7411)
  HEADROOM_TOKEN     the API token; else the api-token file in the data folder
  HEADROOM_DATA_DIR  the data folder holding api-token (default: the app's, e.g. ~/.config/Headroom)`;

export const TOP_HELP = `Usage: headroom <command> [options]

Keeps AI coding agents inside their providers' concurrency limits, through a running
Headroom host (the desktop app or \`npm run serve\`).

Commands:
  run --provider <id> -- <command...>   wait for a slot, run the command, release the slot
  status                                providers: active/limit, queue, pauses, notices
  limit [<id> [<n>]]                    show or set a provider's concurrency limit
  limit <id> --keep                     accept an automatic reduction (keep the lower limit)
  cooldown <id> [<ms>]                  show or set the release cooldown in milliseconds
  providers [add|remove|upstream|share|unshare ...]
                                        list, add or remove providers; set an upstream URL;
                                        share one across machines on Redis
  resume <id>                           lift a provider's rate-limit pause now
  routes [reset <target> <runtime> <model>]  route circuit breakers; close one by hand
  agents                                agents seen in the last hour: state, requests, tokens, cost
  usage [--hours N | --days N] [--by agent|provider|model|project|day|hour]
                                        tokens and cost through the proxy (default: 5 h, by agent)
  statusline [--provider <id>] [--then '<command>']
                                        one line for Claude Code's statusLine setting
  connect [<agent>]                     point claude, codex, gemini or opencode at Headroom;
                                        alone, list the agents and their connections
  disconnect <agent>                    undo connect (byte for byte when nothing else changed)
  env [--provider <id>]                 export lines for this shell: eval "$(headroom env)"
  doctor                                check the host, proxy, upstreams and agents

Options: --json (machine-readable output), --help (this text, or a command's).

${ENVIRONMENT}

Exit status: 0 ok; 64 usage; 65 a configuration file that does not parse; 69 host
unavailable; 70 unexpected answer; 73 a file that cannot be written; 75 queue timeout;
77 token refused. \`run\` otherwise exits with its command's status.
`;

export const COMMAND_HELP: Record<string, string> = {
  run: `Usage: headroom run --provider <id> [--agent <name>] [--timeout <duration>] [--via-proxy]
                    [--resume [--max-resumes <n>] [--resume-command '<command line>']] -- <command...>

Waits in line for a slot of the provider, runs the command while holding it (heartbeating
so it does not expire) and releases it when the command ends, whatever way it ends.
While waiting, the position in the queue and any pause countdown are shown on stderr.

  --provider, -p <id>     the provider whose slot to take (required)
  --agent, -a <name>      the name shown in the window (default: the command's name)
  --timeout, -t <dur>     give up after this long in the queue: 500ms, 90s, 5m, 1h
                          (a bare number is seconds; 0 = only if a slot is free now)
  --via-proxy             point ANTHROPIC_BASE_URL and OPENAI_BASE_URL at Headroom's proxy
  --resume                when the command stops on a used-up plan window, wait for its reset
                          and start it again in its resume form (claude -p: --resume <session>;
                          codex exec: exec … resume <session> <prompt>; anything else: as is)
  --max-resumes <n>       how often to resume, 1 to 20 (default 3; needs --resume)
  --resume-command '<c>'  run this (with sh -c) at every resume instead (needs --resume)

The command gets HEADROOM_LEASE_ID. When ANTHROPIC_BASE_URL or OPENAI_BASE_URL points at
this host's proxy for the provider (…/<id>/v1), it is scoped to the run's lease
(…/<id>/_lease/<leaseId>/v1): the command's requests use the slot the run holds instead of
waiting behind it.

The outcome reported to Headroom: exit 0 is a success; otherwise, when the command's
output (read only when it goes to a pipe or file, not a terminal) carries a rate-limit
marker (429, "rate limit", "too many requests"), the provider is paused, for the
Retry-After given in the output when there is one; anything else is a failure.

SIGTERM and SIGHUP are passed on to the command; so is SIGINT when stdin is not a terminal
(on a terminal, Ctrl-C already reaches it). Exit status: the command's own (128 + n when a
signal n ended it), or 64, 69, 75, 77 for Headroom's own failures; 127 when the command
cannot be found.

Examples:
  headroom run --provider anthropic -- claude -p "fix the failing test"
  headroom run -p openai -a codex-2 --timeout 10m -- codex exec "add tests"
  headroom run -p anthropic -- aider --model sonnet --yes --message "tidy imports"
  headroom run -p anthropic --resume -- claude -p "work through TODO.md"

${ENVIRONMENT}
`,
  status: `Usage: headroom status [--json]

One line per provider: held slots of the limit, waiters, slots recycling in their release
cooldown, pause countdown, cooldown, wait p50/p95, and auto-reductions with their notice.
A provider shared across machines shows how many hosts use it, and why its agents wait
when Redis is unreachable; a host with Redis configured says whether it reaches it.
`,
  limit: `Usage: headroom limit [<id> [<n>]] [--json]
       headroom limit <id> --keep [--json]

Without arguments lists every provider's limit; with an id shows it; with a number (1 to
10000) sets it, which also clears an automatic reduction. --keep accepts an automatic
reduction instead: the lower limit stays and the notice goes. Add new providers with
\`headroom providers add <id> <limit>\`.
`,
  cooldown: `Usage: headroom cooldown <id> [<ms>] [--json]

Shows or sets how long a released slot rests before the next agent may take it
(0 to 600000 ms, default 350), covering the provider's accounting lag.
`,
  providers: `Usage: headroom providers [--json]
       headroom providers add <id> [<limit>] [--upstream <url>]
       headroom providers remove <id>
       headroom providers upstream <id> <url|none>
       headroom providers share <id>
       headroom providers unshare <id>
${SETTING_NAMES.map((name) => `       headroom providers ${SETTINGS[name].words.verb} <id> <${argumentOf(SETTINGS[name])}>`).join("\n")}

Lists providers with limit, cooldown, upstream and whether they are shared; adds one (ids:
lowercase letters, digits, '.', '_', '-'; a preset id — anthropic, openai, chatgpt, gemini,
openrouter — without a limit takes the preset's limit and upstream); removes one (its waiters are turned away); sets
or clears the upstream base URL the gating proxy forwards to.

${SETTING_NAMES.map((name) => settingHelp(name)).join("\n")}

share keeps the provider's limit, queue and pauses on Redis, so every host on the same
Redis (and prefix) that shares the same id holds one limit across machines; the host must
be started with HEADROOM_REDIS_URL. unshare makes it local again, keeping Redis's current
settings.
`,
  connect: `Usage: headroom connect [--json]
       headroom connect <agent> [--provider <id>] [--dry-run] [--yes] [--replace] [--login chatgpt|api-key]

Alone: lists the agents (claude, codex, gemini, opencode), whether each is installed, and
whether it is connected and to which provider.

With an agent: edits that agent's own configuration so every later run goes through the
running host's proxy (docs/connect.md shows each edit). Shows the change and asks first;
--yes applies it without asking (needed off a terminal), --dry-run only shows it.
--provider picks the provider (default: the agent's preset, created when missing);
--replace points an agent that uses another base URL at Headroom instead; --login forces
Codex's ChatGPT login or API key. A connected agent needs Headroom running.
`,
  disconnect: `Usage: headroom disconnect <agent> [--dry-run] [--yes]

Undoes connect: restores the file byte for byte when nothing else changed it since (deleting
it when connect created it); otherwise removes only what connect added.
`,
  env: `Usage: headroom env [--provider <id>]

Prints export lines for this shell only (eval "$(headroom env)"): with --provider, the base
URL variables its agents read; without, one per variable for the providers named anthropic,
openai and gemini that exist. Nothing is written.
`,
  doctor: `Usage: headroom doctor

Checks the host, its proxy, each provider's upstream (a connection within 3 s) and each
agent's connection; prints ok, warn or fail lines with what to do. Exit status 1 when
something fails.
`,
  resume: `Usage: headroom resume <id> [--json]

Lifts a provider's rate-limit pause by hand; waiting agents are admitted at once.
`,
  routes: `Usage: headroom routes [--json]
       headroom routes reset <target> <runtime> <model>

Lists route circuit breakers (target, runtime, model) with their state, or closes one by
hand.
`,
  agents: `Usage: headroom agents [--json]

Lists the agents seen in the last hour, running and waiting first: who they are (the name
from --agent or x-headroom-agent, else the local process and its folder, else the
user-agent), their provider, state, and requests and tokens in the last 5 hours.
`,
  statusline: `Usage: headroom statusline [--provider <id>] [--then '<command>']

For Claude Code's statusLine setting (~/.claude/settings.json):
  "statusLine": { "type": "command", "command": "headroom statusline --provider anthropic" }

Reads the JSON Claude Code writes to its input, sends its rate_limits (the 5-hour and weekly
windows, on a claude.ai login) to the running host as window readings of the provider, and
prints one line: anthropic 2/3 · 1 queued · 5h 43% ↻15:00 · 7d 12%

  --provider <id>    the provider to show (default: the one ANTHROPIC_BASE_URL points at on
                     the proxy, else anthropic)
  --then '<command>' also run your previous status line command with the same input and print
                     its output after Headroom's

The token goes only to the host that the data folder's host.lock names as running. Whatever
happens (no host, no answer, input it does not understand) it prints within 300 ms and exits 0.
See docs/statusline.md.
`,
  usage: `Usage: headroom usage [--hours N | --days N] [--by agent|provider|model|project|day|hour] [--json]

Sums the tokens, requests, 429s, errors and cost counted through the proxy over the last N
hours (1 to 192, default 5) or over today and the N-1 local dates before it (--days 1 to 8;
not both), grouped by agent (default), provider, model, project (the agent's folder), day
(local date) or hour. Input excludes cache reads; output includes reasoning. COST is in US
dollars from published prices; on a plan it is API-equivalent (what the API would charge)
and says so; requests to a model without a price are counted as unpriced.
`,
};
