// `connect`, `disconnect` and the list of agents (SPEC §10), for the host's service and the CLI
// alike: plan every file first, write only what changes, keep the previous content first.
import fs from "node:fs";
import path from "node:path";
import { AGENT_IDS, AGENT_NAMES, isConnectAgent, type ConnectAgent, type ConnectAnswer, type ConnectionEntry } from "../../shared/presets";
import { claudeStatusLine, claudeTarget } from "./claude-target";
import { codexTarget } from "./codex-target";
import { readConfig, realTarget, removeConfig, writeConfig } from "./config-file";
import { ConnectError } from "./connect-error";
import type { AgentTarget, ConnectContext, ConnectOptions } from "./connect-types";
import { ConnectionLedger, sha256, type FileRecord } from "./connection-ledger";
import { geminiTarget } from "./gemini-target";
import { headroomCommand } from "./headroom-command";
import { changedLines } from "./line-diff";
import { opencodeTarget } from "./opencode-target";
import { removeOwned } from "./undo-edit";

const TARGETS: Record<ConnectAgent, AgentTarget> = { claude: claudeTarget, codex: codexTarget, gemini: geminiTarget, opencode: opencodeTarget };

const RUNNING_NOTE = "A connected agent needs Headroom running: while it is not, the agent's requests fail.";

function targetOf(agent: string): AgentTarget {
  if (!isConnectAgent(agent)) {
    throw new ConnectError("unknown_agent", `Unknown agent ${JSON.stringify(agent)}; agents Headroom can connect: ${AGENT_IDS.join(", ")}.`);
  }
  return TARGETS[agent];
}

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? "").split(path.delimiter).some((dir) => dir !== "" && fs.existsSync(path.join(dir, command)));
}

export interface ConnectorOptions {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  home: string;
  cwd: string;
  proxyUrl: string;
  /** The status line's `<node> <bin/headroom.js>`; found from this checkout when not given, null for none. */
  headroomCommand?: string | null;
}

export class Connector {
  private readonly ledger: ConnectionLedger;

  constructor(private readonly options: ConnectorOptions) {
    this.ledger = new ConnectionLedger(options.dataDir);
  }

  private context(): ConnectContext {
    const { env, home, cwd, proxyUrl } = this.options;
    const command = this.options.headroomCommand === undefined ? headroomCommand() : (this.options.headroomCommand ?? undefined);
    return { env, home, cwd, proxyUrl, ownUrls: this.ledger.ownUrls(), headroomCommand: command };
  }

  /** Claude Code's status line as settings.json has it now, for doctor. */
  claudeStatusLine(): ReturnType<typeof claudeStatusLine> {
    return claudeStatusLine(this.context());
  }

  list(): ConnectionEntry[] {
    const ctx = this.context();
    return AGENT_IDS.map((agent) => {
      const target = TARGETS[agent];
      const state = target.state(ctx);
      const installed = onPath(target.command, ctx.env) || fs.existsSync(target.configDir(ctx));
      return {
        agent,
        name: AGENT_NAMES[agent],
        installed,
        connected: state.connected,
        ...(state.provider ? { provider: state.provider } : {}),
        files: state.files,
        ...(state.warnings.length > 0 ? { warnings: state.warnings } : {}),
      };
    });
  }

  /** The plan's provider, before anything is written (the caller makes sure it exists). */
  providerFor(agent: string, options: ConnectOptions): string {
    return targetOf(agent).plan(this.context(), options).provider;
  }

  connect(agent: string, options: ConnectOptions & { dryRun?: boolean }): ConnectAnswer {
    const target = targetOf(agent);
    const plan = target.plan(this.context(), options);
    const changes = plan.edits.filter((edit) => edit.after !== (edit.before ?? ""));
    const files = changes.map((edit) => ({ path: edit.path, diff: changedLines(edit.before, edit.after) }));
    const answer: ConnectAnswer = { agent: plan.agent, files, changed: files.length > 0, provider: plan.provider, notes: [...plan.notes, RUNNING_NOTE] };
    if (options.dryRun || changes.length === 0) return answer;
    const previous = this.ledger.agent(plan.agent);
    const records: FileRecord[] = [...(previous?.files ?? [])];
    // The previous contents are saved before any file is written, so a failure leaves them.
    const pending = changes.map((edit) => {
      const real = realTarget(edit.path);
      const known = records.find((record) => record.path === real);
      const saved = known ? known.saved : edit.before === undefined ? undefined : this.ledger.saveOriginal(plan.agent, real, edit.before);
      return { edit, real, created: known ? known.created : edit.before === undefined, saved };
    });
    const written: typeof pending = [];
    try {
      for (const item of pending) {
        writeConfig(item.edit.path, item.edit.after);
        written.push(item);
      }
    } catch (error) {
      // Nothing half-written: the files already changed go back to what they were.
      for (const item of written) {
        if (item.edit.before === undefined) removeConfig(item.edit.path);
        else writeConfig(item.edit.path, item.edit.before);
      }
      throw error;
    }
    for (const item of pending) {
      const record: FileRecord = { path: item.real, created: item.created, written: sha256(item.edit.after), owned: item.edit.owned, ...(item.saved ? { saved: item.saved } : {}) };
      const at = records.findIndex((known) => known.path === item.real);
      if (at >= 0) records[at] = record;
      else records.push(record);
    }
    this.ledger.put(plan.agent, { provider: plan.provider, baseUrl: plan.baseUrl, files: records });
    return answer;
  }

  disconnect(agent: string, options: { dryRun?: boolean }): ConnectAnswer {
    const target = targetOf(agent);
    const record = this.ledger.agent(target.agent);
    const notes: string[] = [];
    const steps: { path: string; before: string | undefined; after: string | undefined }[] = [];
    if (record) {
      for (const file of record.files) {
        const now = readConfig(file.path);
        if (now !== undefined && sha256(now) === file.written) {
          steps.push({ path: file.path, before: now, after: file.created ? undefined : this.ledger.original(file.saved!) });
        } else if (now !== undefined) {
          notes.push(`${file.path} changed since connect: removed only what Headroom added.`);
          steps.push({ path: file.path, before: now, after: removeOwned(now, file.owned) });
        }
      }
    } else if (target.state(this.context()).connected) {
      // Connected without a record (the data folder was reset): remove Headroom's keys only.
      const plan = target.plan(this.context(), { replace: true });
      for (const edit of plan.edits) {
        if (edit.before !== undefined) steps.push({ path: edit.path, before: edit.before, after: removeOwned(edit.before, edit.owned) });
      }
    }
    const changes = steps.filter((step) => step.after !== step.before);
    const files = changes.map((step) => ({ path: step.path, diff: changedLines(step.before, step.after) }));
    if (!options.dryRun) {
      for (const step of changes) {
        if (step.after === undefined) removeConfig(step.path);
        else writeConfig(step.path, step.after);
      }
      if (record) this.ledger.put(target.agent, undefined);
    }
    return { agent: target.agent, files, changed: files.length > 0, ...(notes.length > 0 ? { notes } : {}) };
  }
}
