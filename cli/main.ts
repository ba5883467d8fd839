// `headroom`: the command table. Each command lives in its own file and returns its exit status.
import type { Command, CommandContext } from "./command";
import { agentsCommand, usageCommand } from "./commands/agents";
import { cooldownCommand } from "./commands/cooldown";
import { limitCommand } from "./commands/limit";
import { providersCommand } from "./commands/providers";
import { resumeCommand } from "./commands/resume";
import { routesCommand } from "./commands/routes";
import { statusCommand } from "./commands/status";
import { wantsHelp } from "./args";
import { connect, type Connection } from "./connection";
import { EXIT, UsageError } from "./exit-codes";
import { describeFailure } from "./failures";
import { COMMAND_HELP, TOP_HELP } from "./help";
import { runCommand } from "./run/run-command";

const COMMANDS: Record<string, Command> = {
  run: runCommand,
  status: statusCommand,
  limit: limitCommand,
  cooldown: cooldownCommand,
  providers: providersCommand,
  resume: resumeCommand,
  routes: routesCommand,
  agents: agentsCommand,
  usage: usageCommand,
  // The connect code (jsonc-parser, smol-toml) is loaded only by the commands that use it.
  connect: async (argv, context) => (await import("./commands/connect")).connectCommand(argv, context),
  disconnect: async (argv, context) => (await import("./commands/connect")).disconnectCommand(argv, context),
  env: async (argv, context) => (await import("./commands/env")).envCommand(argv, context),
  doctor: async (argv, context) => (await import("./commands/doctor")).doctorCommand(argv, context),
};

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h") {
    (name === undefined ? process.stderr : process.stdout).write(TOP_HELP);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === "help") {
    const topic = rest[0];
    process.stdout.write(topic !== undefined && COMMAND_HELP[topic] ? COMMAND_HELP[topic] : TOP_HELP);
    return EXIT.ok;
  }

  let connection: Connection | undefined;
  const context: CommandContext = { connection: () => (connection ??= connect(env)) };
  try {
    const command = COMMANDS[name];
    if (!command) throw new UsageError(`unknown command ${JSON.stringify(name)}; commands: ${Object.keys(COMMANDS).join(", ")}`);
    if (wantsHelp(rest)) {
      process.stdout.write(COMMAND_HELP[name]!);
      return EXIT.ok;
    }
    return await command(rest, context);
  } catch (error) {
    const failure = describeFailure(error, connection);
    process.stderr.write(`headroom: ${failure.message}\n`);
    return failure.exitCode;
  }
}

process.exitCode = await main(process.argv.slice(2), process.env);
