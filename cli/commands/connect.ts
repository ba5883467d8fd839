// `headroom connect [<agent>]` and `headroom disconnect <agent>` (SPEC §10): this user's agents
// pointed at the running host's proxy, and back. Loaded only when one of them runs.
import { AGENT_IDS, isConnectAgent } from "../../shared/presets";
import { ApiError } from "../../shared/api-client";
import { parseCommandArgs, providerIdArg, takePositionals } from "../args";
import { printJson, type Command } from "../command";
import { UsageError } from "../exit-codes";
import { confirmed, connectorFor, DEFAULT_PROXY_URL, ensureProvider, ephemeralPortNote, printChanges, proxyOf } from "../agent-setup";
import { formatTable } from "../table";

function agentArg(text: string, command: string): string {
  if (!isConnectAgent(text)) throw new UsageError(`unknown agent ${JSON.stringify(text)}; agents: ${AGENT_IDS.join(", ")}`, command);
  return text;
}

export const connectCommand: Command = async (argv, context) => {
  const { values, positionals } = parseCommandArgs("connect", argv, {
    provider: { type: "string" },
    "dry-run": { type: "boolean" },
    yes: { type: "boolean", short: "y" },
    replace: { type: "boolean" },
    login: { type: "string" },
  });
  const [rawAgent] = takePositionals("connect", positionals, ["agent"], 0);
  const agent = rawAgent === undefined ? undefined : agentArg(rawAgent, "connect");
  if (values.login !== undefined && values.login !== "chatgpt" && values.login !== "api-key") {
    throw new UsageError(`--login must be chatgpt or api-key (got ${JSON.stringify(values.login)})`, "connect");
  }
  const options = {
    ...(values.provider === undefined ? {} : { provider: providerIdArg(values.provider, "connect") }),
    ...(values.replace ? { replace: true } : {}),
    ...(values.login === undefined ? {} : { login: values.login as "chatgpt" | "api-key" }),
  };
  const { client } = context.connection();
  const proxyUrl = await proxyOf(client);
  const connector = connectorFor(process.env, proxyUrl);
  if (agent === undefined) {
    const connections = connector.list();
    if (values.json) printJson({ connections });
    else {
      const rows = connections.map((c) => [c.agent, c.name, c.installed ? "installed" : "not found", c.connected ? `connected to ${c.provider ?? "?"}` : "not connected"]);
      process.stdout.write(formatTable(["agent", "name", "installed", "connection"], rows));
    }
    return 0;
  }
  const plan = connector.connect(agent, { ...options, dryRun: true });
  if (values.json && (values["dry-run"] || !plan.changed)) {
    printJson(plan);
    return 0;
  }
  if (!plan.changed) {
    process.stdout.write(`${agent} is already connected to ${plan.provider}; nothing to change.\n`);
    return 0;
  }
  printChanges(plan.files);
  if (values["dry-run"]) return 0;
  if (!(await confirmed(`Apply this change to ${agent}'s configuration?`, values.yes === true, "connect"))) {
    process.stdout.write("Nothing changed.\n");
    return 0;
  }
  const added = await ensureProvider(client, plan.provider!, "connect");
  const answer = connector.connect(agent, { ...options, provider: plan.provider! });
  if (values.json) printJson(answer);
  else {
    const notes = [added, `Connected ${agent} to ${answer.provider} through ${proxyUrl}.`, ...(answer.notes ?? []), ephemeralPortNote(proxyUrl)];
    process.stdout.write(`${notes.filter(Boolean).join("\n")}\nUndo with: headroom disconnect ${agent}\n`);
  }
  return 0;
};

export const disconnectCommand: Command = async (argv, context) => {
  const { values, positionals } = parseCommandArgs("disconnect", argv, { "dry-run": { type: "boolean" }, yes: { type: "boolean", short: "y" } });
  const [rawAgent] = takePositionals("disconnect", positionals, ["agent"]);
  const agent = agentArg(rawAgent!, "disconnect");
  // Undoing works while the host is down: the saved copies are in the data folder.
  const proxyUrl = await proxyOf(context.connection().client).catch((error: unknown) => {
    if (error instanceof ApiError && (error.code === "network" || error.code === "unavailable")) return DEFAULT_PROXY_URL;
    throw error;
  });
  const connector = connectorFor(process.env, proxyUrl);
  const plan = connector.disconnect(agent, { dryRun: true });
  if (!plan.changed) {
    if (values.json) printJson(plan);
    else process.stdout.write(`${agent} is not connected; nothing to change.\n`);
    return 0;
  }
  if (!values.json) printChanges(plan.files);
  if (values["dry-run"]) {
    if (values.json) printJson(plan);
    return 0;
  }
  if (!(await confirmed(`Undo Headroom's change to ${agent}'s configuration?`, values.yes === true, "disconnect"))) {
    process.stdout.write("Nothing changed.\n");
    return 0;
  }
  const answer = connector.disconnect(agent, {});
  if (values.json) printJson(answer);
  else process.stdout.write(`${[...(answer.notes ?? []), `Disconnected ${agent}.`].join("\n")}\n`);
  return 0;
};
