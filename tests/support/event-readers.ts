// /events clients for the stream tests, the soak and the bench: one that reads and parses every
// frame, and one that never reads (its socket stays paused, as a hung window's would).
import { get } from "node:http";
import { connect, type Socket } from "node:net";

interface SseFrame {
  event: string;
  data: any;
  bytes: number;
}

export interface ReadingClient {
  frames: SseFrame[];
  bytes: () => number;
  /** Resolves when the stream ends (the host closed it or went away). */
  ended: Promise<void>;
  close(): void;
}

function request(port: number, token: string): string {
  return `GET /events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`;
}

/** Reads and parses every frame as it comes. */
export function readingClient(port: number, token: string): ReadingClient {
  const frames: SseFrame[] = [];
  let total = 0;
  let buffer = "";
  const req = get({ host: "127.0.0.1", port, path: "/events", headers: { authorization: `Bearer ${token}` } }, (res) => {
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      total += Buffer.byteLength(chunk);
      buffer += chunk;
      for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) frames.push({ event, data: JSON.parse(data), bytes: Buffer.byteLength(block) + 2 });
      }
    });
    res.on("error", () => undefined);
  });
  req.on("error", () => undefined);
  const ended = new Promise<void>((resolve) => req.on("close", () => resolve()));
  return { frames, bytes: () => total, ended, close: () => req.destroy() };
}

export interface StalledClient {
  socket: Socket;
  /**
   * The host closed the stream. This client reads nothing, so the host's FIN waits behind the
   * unread data: it shows only as the host's end of the connection leaving ESTABLISHED.
   */
  droppedByHost(): Promise<boolean>;
  /** Starts reading what piled up; resolves with the byte count once the host has closed the stream. */
  drain(): Promise<number>;
  close(): void;
}

/** Asks for /events and never reads: whatever the host sends piles up in the host. */
export function stalledClient(port: number, token: string): StalledClient {
  const socket = connect(port, "127.0.0.1", () => socket.write(request(port, token)));
  socket.pause();
  socket.on("error", () => undefined);
  return {
    socket,
    droppedByHost: async () => {
      const state = await peerStateOf(socket.localPort ?? 0);
      return state !== undefined && state !== ESTABLISHED;
    },
    drain: () =>
      new Promise((resolve) => {
        let bytes = 0;
        socket.on("data", (chunk: Buffer) => (bytes += chunk.length));
        socket.on("close", () => resolve(bytes));
        socket.resume();
      }),
    close: () => socket.destroy(),
  };
}

const ESTABLISHED = "01";

/** The TCP state of the other end of our 127.0.0.1 socket with this local port, from /proc/net/tcp (Linux). */
async function peerStateOf(localPort: number): Promise<string | undefined> {
  const { readFile } = await import("node:fs/promises");
  const table = await readFile("/proc/net/tcp", "utf8");
  const ours = `0100007F:${localPort.toString(16).toUpperCase().padStart(4, "0")}`;
  for (const line of table.split("\n").slice(1)) {
    const [, , remote, state] = line.trim().split(/\s+/);
    if (remote === ours) return state;
  }
  return undefined;
}

/** The resident memory of a process, from /proc (Linux). */
export async function rssOf(pid: number): Promise<number> {
  const { readFile } = await import("node:fs/promises");
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}
