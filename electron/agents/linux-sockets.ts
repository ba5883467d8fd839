// Linux: the process at the other end of a loopback connection, from /proc (SPEC §9). The
// client's socket is the line of /proc/net/tcp(6) whose local port is the connection's remote
// port (tcp-table.ts); its inode leads to the pid through /proc/<pid>/fd (process-fds.ts).
//
// A lookup never costs the host more than a bounded pass (issue 32: one process holding
// 19,000 files and opening 50 connections a second took proxied p50 from 41 ms to 602 ms and
// /health p99 to 1.6 s when every pass read every fd of every recent pid):
// - one pass at a time; lookups that arrive during a pass are answered by the next one, so
//   a burst of 256 new connections reads the tables once and each process's fds once;
// - a pass reads at most FDS_PER_PASS fds, in chunks that yield to the event loop;
// - what a pass learns is remembered by inode (bounded, aged): every socket it saw and whose
//   it is, and the inodes a whole walk of /proc did not find, so neither is searched again;
// - a pass that takes longer than a second (a process stuck in the kernel can make its /proc
//   files hang) answers nothing, is stopped at its next chunk, and the next pass starts.
import { readdir, readFile, readlink } from "node:fs/promises";
import { basename } from "node:path";
import type { LocalProcess } from "./agent-identity";
import { AgedMap } from "./aged-map";
import { commandName } from "./command-name";
import { ProcessFds, type Budget } from "./process-fds";
import { connectionKey, loopbackInodes } from "./tcp-table";

type Answer = (found: LocalProcess | undefined) => void;

const FDS_PER_PASS = 2_048;
const PASS_GIVES_UP_MS = 1_000;
/** Inodes remembered: their pid, or null when a whole walk of /proc found no owner. */
const SOCKETS_REMEMBERED = 16_384;
const SOCKET_KEPT_MS = 60_000;
/** A process's command and folder, read once for the lookups of a few seconds. */
const DESCRIBED_KEPT_MS = 2_000;
const RECENT_KEPT = 16;
/** Processes read side by side in a walk of /proc. */
const PROCESSES_AT_ONCE = 4;

async function describe(pid: number): Promise<LocalProcess> {
  const [comm, cmdline, cwd] = await Promise.all([
    readFile(`/proc/${pid}/comm`, "utf8").catch(() => ""),
    readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => ""),
    readlink(`/proc/${pid}/cwd`).catch(() => undefined),
  ]);
  const argv = cmdline.split("\0").filter((arg) => arg !== "");
  const command = commandName(comm.trim() || basename(argv[0] ?? ""), argv);
  return { pid, command, ...(cwd === undefined ? {} : { cwd }) };
}

export class LinuxSockets {
  private wanted = new Map<string, Answer[]>();
  private passing = false;
  /** Pids that held a client socket before: agents open many connections, so they are looked at first. */
  private readonly recent: number[] = [];
  private readonly owners = new AgedMap<string, number | null>(SOCKETS_REMEMBERED, SOCKET_KEPT_MS);
  private readonly described = new AgedMap<number, Promise<LocalProcess>>(RECENT_KEPT * 4, DESCRIBED_KEPT_MS);
  private readonly fds = new ProcessFds();

  constructor(private readonly self = process.pid) {}

  processOf(clientPort: number, serverPort: number): Promise<LocalProcess | undefined> {
    return new Promise((answer) => {
      const key = connectionKey(clientPort, serverPort);
      const known = this.wanted.get(key);
      if (known) known.push(answer);
      else this.wanted.set(key, [answer]);
      if (!this.passing) {
        this.passing = true;
        // The rest of this burst joins the pass: connections accepted in one turn of the loop.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.wanted.size > 0) {
      const batch = this.wanted;
      this.wanted = new Map();
      const budget: Budget = { fdsLeft: FDS_PER_PASS, stopped: false };
      let timer: NodeJS.Timeout | undefined;
      const givenUp = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, PASS_GIVES_UP_MS);
      });
      await Promise.race([this.pass(batch, budget).catch(() => {}), givenUp]);
      clearTimeout(timer);
      budget.stopped = true;
      // Answered at most once: a pass still running past the limit finds these already answered.
      for (const answers of batch.values()) for (const answer of answers.splice(0)) answer(undefined);
    }
    this.passing = false;
  }

  /** Answers (and empties) every connection of the batch whose process it finds. */
  private async pass(batch: Map<string, Answer[]>, budget: Budget): Promise<void> {
    const inodes = await loopbackInodes(new Set(batch.keys()), () => budget.stopped);
    const owners = new Map<string, number>();
    const unknown = new Set<string>();
    for (const inode of inodes.values()) {
      const owner = this.owners.get(inode);
      if (owner === undefined) unknown.add(inode);
      else if (owner !== null) owners.set(inode, owner);
    }
    if (unknown.size > 0) await this.search(unknown, owners, budget);
    for (const pid of new Set(owners.values())) this.remember(pid);
    await Promise.all(
      [...inodes].map(async ([key, inode]) => {
        const pid = owners.get(inode);
        // A client inside this very process (the tests, the bench) is no agent.
        if (pid === undefined || pid === this.self) return;
        let described = this.described.get(pid);
        if (described === undefined) this.described.set(pid, (described = describe(pid)));
        const found = await described;
        if (!budget.stopped) for (const answer of batch.get(key)!.splice(0)) answer(found);
      }),
    );
  }

  /** Finds owners of `unknown` inodes: recent agents first, then this process, then all, newest first. */
  private async search(unknown: Set<string>, owners: Map<string, number>, budget: Budget): Promise<void> {
    const look = (pid: number) =>
      this.fds.sockets(pid, budget, (inode) => {
        this.owners.set(inode, pid); // every socket seen: a later connection of the same process may be among them
        if (unknown.delete(inode)) owners.set(inode, pid);
        return unknown.size === 0;
      });
    const first = [...this.recent, this.self];
    for (const pid of first) {
      if (unknown.size === 0 || budget.fdsLeft <= 0) return;
      await look(pid);
    }
    if (unknown.size === 0 || budget.fdsLeft <= 0 || budget.stopped) return;
    const looked = new Set(first);
    const pids = (await readdir("/proc").catch(() => [] as string[]))
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .filter((pid) => !looked.has(pid))
      // Newest first: an agent is usually younger than the desktop's daemons around it.
      .sort((a, b) => b - a);
    for (let i = 0; i < pids.length; i += PROCESSES_AT_ONCE) {
      if (unknown.size === 0 || budget.fdsLeft <= 0 || budget.stopped) return;
      await Promise.all(pids.slice(i, i + PROCESSES_AT_ONCE).map(look));
    }
    // The whole of /proc was read and these were nowhere (another user's process, one gone).
    if (budget.fdsLeft > 0 && !budget.stopped) for (const inode of unknown) this.owners.set(inode, null);
  }

  private remember(pid: number): void {
    if (pid === this.self) return;
    const at = this.recent.indexOf(pid);
    if (at >= 0) this.recent.splice(at, 1);
    this.recent.unshift(pid);
    if (this.recent.length > RECENT_KEPT) this.recent.pop();
  }
}
