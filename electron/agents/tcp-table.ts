// The client's end of a loopback connection in /proc/net/tcp(6) (SPEC §9): the line whose
// local port is the connection's remote port gives the socket's inode. The table holds every
// socket on the machine (thousands with idle connections), so it is read in 64 KiB chunks,
// each an await, and only until every wanted connection is found; a chunk holding none of
// the wanted ports is skipped without being split into lines.
import { open } from "node:fs/promises";

const CHUNK_BYTES = 64 * 1024;
/** ~100,000 sockets: past that the rest of a table is not read. */
const TABLE_MAX_BYTES = 16 * 1024 * 1024;

const hexPort = (port: number) => port.toString(16).toUpperCase().padStart(4, "0");
/** `<client port>><server port>` in the table's hex. */
export const connectionKey = (clientPort: number, serverPort: number) => `${hexPort(clientPort)}>${hexPort(serverPort)}`;

/** 127.0.0.0/8, ::1 and ::ffff:127.x as /proc/net/tcp(6) write them (host byte order, little-endian here). */
const LOOPBACK = /^(?:[0-9A-F]{6}7F|0{24}01000000|0{16}FFFF0000[0-9A-F]{6}7F)$/;
// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
const LINE = /^\s*\d+:\s+([0-9A-F]+):([0-9A-F]{4})\s+([0-9A-F]+):([0-9A-F]{4})\s+(?:\S+\s+){6}(\d+)/;

/**
 * Adds to `found` the inode of each wanted connection that `text` (whole lines) holds. Both ends
 * must be loopback: the proxy listens on loopback only, so another machine's socket is no agent
 * here. The first line wins.
 */
function scan(text: string, wanted: ReadonlySet<string>, found: Map<string, string>): void {
  for (const key of wanted) {
    if (found.has(key)) continue;
    const needle = `:${key.slice(0, 4)} `;
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
      const line = text.slice(text.lastIndexOf("\n", at) + 1, (text.indexOf("\n", at) + 1 || text.length + 1) - 1);
      const fields = LINE.exec(line);
      if (!fields || `${fields[2]}>${fields[4]}` !== key || fields[5] === "0") continue;
      if (!LOOPBACK.test(fields[1]!) || !LOOPBACK.test(fields[3]!)) continue;
      found.set(key, fields[5]!);
      break;
    }
  }
}

/** The inode of the socket whose local end is port `clientPort` talking to `serverPort`. */
export function socketInode(table: string, clientPort: number, serverPort: number): string | undefined {
  const found = new Map<string, string>();
  const key = connectionKey(clientPort, serverPort);
  scan(table, new Set([key]), found);
  return found.get(key);
}

/** Inodes of the wanted connections (keys from `connectionKey`), read from both tables until all are found. */
export async function loopbackInodes(wanted: ReadonlySet<string>, stopped: () => boolean): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (found.size === wanted.size || stopped()) break;
    const handle = await open(table, "r").catch(() => undefined);
    if (!handle) continue;
    try {
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      let rest = "";
      for (let total = 0; total < TABLE_MAX_BYTES && found.size < wanted.size && !stopped(); ) {
        const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
        if (bytesRead === 0) break;
        total += bytesRead;
        const text = rest + buffer.toString("latin1", 0, bytesRead);
        const end = text.lastIndexOf("\n") + 1;
        rest = text.slice(end);
        scan(text.slice(0, end), wanted, found);
      }
      if (rest !== "") scan(rest, wanted, found);
    } catch {
      // A table that cannot be read further answers what it gave so far.
    } finally {
      await handle.close().catch(() => {});
    }
  }
  return found;
}
