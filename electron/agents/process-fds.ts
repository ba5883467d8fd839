// The socket inodes a process holds, read from /proc/<pid>/fd within a budget (SPEC §9). Listing
// the fds of a process holding 19,000 files takes the kernel 100–200 ms on a busy 2-core
// machine and each readlink tens of µs, so a pass reads at most a budget of fds, highest
// first (a process's newest socket sits at its lowest free number, above the files it has
// held for long), in chunks that each yield to the event loop. A big listing is kept a few
// seconds and probed, with the numbers just above it, instead of listed again per lookup.
import { readdir, readlink } from "node:fs/promises";
import { AgedMap } from "./aged-map";

/** What one pass may still spend; a pass that gave up is stopped between chunks. */
export interface Budget {
  fdsLeft: number;
  stopped: boolean;
}

/** Readlinks in flight at once: a chunk, then the event loop (and the rest of libuv's pool) gets a turn. */
const CHUNK = 64;
/** Listings at least this long are kept and probed; shorter ones cost less than they would save. */
const BIG_LISTING = 1_024;
const LISTING_KEPT_MS = 5_000;
const LISTINGS_KEPT = 32;
/** Numbers above a kept listing's highest fd that are read too: where a process's next fds go when it has no hole. */
const ABOVE = 32;

export class ProcessFds {
  private readonly listings = new AgedMap<number, number[]>(LISTINGS_KEPT, LISTING_KEPT_MS);

  /**
   * Calls `seen(inode)` for each socket of `pid`, highest fd first, until `seen` answers true (all
   * found), the budget is spent or the pass is stopped. Nothing for a process gone or another user's.
   */
  async sockets(pid: number, budget: Budget, seen: (inode: string) => boolean): Promise<void> {
    const order = await this.order(pid);
    for (let i = 0; i < order.length && budget.fdsLeft > 0 && !budget.stopped; i += CHUNK) {
      const chunk = order.slice(i, i + Math.min(CHUNK, budget.fdsLeft));
      budget.fdsLeft -= chunk.length;
      const links = await Promise.all(chunk.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => "")));
      if (budget.stopped) return;
      for (const link of links) if (link.startsWith("socket:[") && seen(link.slice(8, -1))) return;
    }
  }

  /** The fd numbers to read, highest first. */
  private async order(pid: number): Promise<number[]> {
    const kept = this.listings.get(pid);
    if (kept !== undefined) {
      const top = kept[0] ?? 0;
      return [...Array.from({ length: ABOVE }, (_, i) => top + ABOVE - i), ...kept];
    }
    let names: string[];
    try {
      names = await readdir(`/proc/${pid}/fd`);
    } catch {
      return [];
    }
    const fds = names.map(Number).sort((a, b) => b - a);
    if (fds.length >= BIG_LISTING) this.listings.set(pid, fds);
    return fds;
  }
}
