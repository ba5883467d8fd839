// What Headroom changed, kept in its data folder (SPEC §10): `connections.json` (0600) lists per
// agent each file it wrote, a hash of what it wrote and where the exact previous content is
// saved, so `disconnect` can restore a file byte for byte when nothing else touched it since.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Owned } from "./connect-types";
import { ConnectError } from "./connect-error";

export interface FileRecord {
  /** The real file (a symlink's target). */
  path: string;
  /** Created by connect: disconnect deletes it. */
  created: boolean;
  /** The saved copy of the content before the first change, under connections/. */
  saved?: string;
  /** sha256 of what Headroom last wrote. */
  written: string;
  owned: Owned;
}

export interface AgentRecord {
  provider: string;
  baseUrl: string;
  files: FileRecord[];
}

interface LedgerFile {
  agents: Record<string, AgentRecord>;
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export class ConnectionLedger {
  private readonly file: string;
  private readonly copies: string;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, "connections.json");
    this.copies = path.join(dataDir, "connections");
  }

  read(): LedgerFile {
    try {
      const parsed = JSON.parse(fs.readFileSync(this.file, "utf8")) as Partial<LedgerFile>;
      return { agents: parsed.agents ?? {} };
    } catch {
      return { agents: {} };
    }
  }

  agent(agent: string): AgentRecord | undefined {
    return this.read().agents[agent];
  }

  /** Every base URL Headroom wrote (an earlier proxy port is still ours). */
  ownUrls(): string[] {
    return Object.values(this.read().agents).map((record) => record.baseUrl);
  }

  /** Keeps the exact previous content once, before the first change to the file. */
  saveOriginal(agent: string, realPath: string, content: string): string {
    const name = `${agent}-${sha256(realPath).slice(0, 12)}.orig`;
    const target = path.join(this.copies, name);
    this.guard(() => {
      fs.mkdirSync(this.copies, { recursive: true, mode: 0o700 });
      if (!fs.existsSync(target)) fs.writeFileSync(target, content, { mode: 0o600 });
    });
    return name;
  }

  original(name: string): string {
    return fs.readFileSync(path.join(this.copies, name), "utf8");
  }

  put(agent: string, record: AgentRecord | undefined): void {
    const ledger = this.read();
    if (record) ledger.agents[agent] = record;
    else {
      for (const file of ledger.agents[agent]?.files ?? []) if (file.saved) fs.rmSync(path.join(this.copies, file.saved), { force: true });
      delete ledger.agents[agent];
    }
    this.guard(() => {
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const temp = `${this.file}.tmp`;
      fs.writeFileSync(temp, `${JSON.stringify(ledger, null, 2)}\n`, { mode: 0o600 });
      fs.renameSync(temp, this.file);
    });
  }

  private guard(write: () => void): void {
    try {
      write();
    } catch (error) {
      throw new ConnectError(
        "config_unwritable",
        `Cannot keep the previous configuration in Headroom's data folder ${path.dirname(this.file)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); nothing was changed. Make the folder writable and retry.`,
      );
    }
  }
}
