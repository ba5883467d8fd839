// `headroom`: the command table. Each command lives in its own file, is loaded only when it is
// the one asked for, and returns its exit status. `statusline` runs on every render of Claude
// Code's prompt and must answer within 300 ms (SPEC §10), so it is dispatched before anything
// else is loaded: no argument parser, no typed client, no TypeBox (bench/statusline.bench.ts).
import type { Command, CommandContext } from "./command";
import type { Connection } from "./connection";
import { EXIT, UsageError } from "./exit-codes";

const COMMANDS: Record<string, () => Promise<Command>> = {
  run: async () => (await import("./run/run-command")).runCommand,
  status: async () => (await import("./commands/status")).statusCommand,
  limit: async () => (await import("./commands/limit")).limitCommand,
  cooldown: async () => (await import("./commands/cooldown")).cooldownCommand,
  providers: async () => (await import("./commands/providers")).providersCommand,
  resume: async () => (await import("./commands/resume")).resumeCommand,
  routes: async () => (await import("./commands/routes")).routesCommand,
  agents: async () => (await import("./commands/agents")).agentsCommand,
  usage: async () => (await import("./commands/agents")).usageCommand,
  statusline: async () => (await import("./statusline/statusline-command")).statuslineCommand,
  // The connect code (jsonc-parser, smol-toml) is loaded only by the commands that use it.
  connect: async () => (await import("./commands/connect")).connectCommand,
  disconnect: async () => (await import("./commands/connect")).disconnectCommand,
  env: async () => (await import("./commands/env")).envCommand,
  doctor: async () => (await import("./commands/doctor")).doctorCommand,
};

const asksHelp = (argv: string[]) => argv.includes("--help") || argv.includes("-h");

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [name, ...rest] = argv;
  // It never fails and never prints usage: whatever it is given, it prints a line and exits 0.
  if (name === "statusline" && !asksHelp(rest)) return (await import("./statusline/statusline-command")).statusline(rest, env);

  const { COMMAND_HELP, TOP_HELP } = await import("./help");
  if (name === undefined || name === "--help" || name === "-h") {
    (name === undefined ? process.stderr : process.stdout).write(TOP_HELP);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === "help") {
    const topic = rest[0];
    process.stdout.write(topic !== undefined && COMMAND_HELP[topic] ? COMMAND_HELP[topic] : TOP_HELP);
    return EXIT.ok;
  }

  const [{ connect }, { describeFailure }, { wantsHelp }] = await Promise.all([import("./connection"), import("./failures"), import("./args")]);
  let connection: Connection | undefined;
  const context: CommandContext = { connection: () => (connection ??= connect(env)) };
  try {
    const load = COMMANDS[name];
    if (!load) throw new UsageError(`unknown command ${JSON.stringify(name)}; commands: ${Object.keys(COMMANDS).join(", ")}`);
    if (wantsHelp(rest)) {
      process.stdout.write(COMMAND_HELP[name]!);
      return EXIT.ok;
    }
    return await (await load())(rest, context);
  } catch (error) {
    const failure = describeFailure(error, connection);
    process.stderr.write(`headroom: ${failure.message}\n`);
    return failure.exitCode;
  }
}

process.exitCode = await main(process.argv.slice(2), process.env);
