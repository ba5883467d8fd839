// SPEC §9: the proxy tells agents apart by the local process behind each connection.
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { ConnectionProcesses } from "../../electron/agents/connection-identity";
import { processOfConnection } from "../../electron/agents/process-of-socket";

let server: Server | undefined;
let folder: string | undefined;
afterEach(() => {
  server?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

test.runIf(process.platform === "linux")("a child in a temp folder that connects is found with its pid and folder", async () => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), "headroom-agent-")));
  const accepted = new Promise<Socket>((resolve) => {
    server = createServer(resolve);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server!.address() as { port: number };
  writeFileSync(join(folder, "my-agent.js"), `require("net").connect(${port}, "127.0.0.1"); setTimeout(() => {}, 30000);`);
  const child = spawn(process.execPath, ["my-agent.js"], { cwd: folder, stdio: "ignore" });
  try {
    const socket = await accepted;
    // A generous budget: the assertion is who, not how fast (the bench measures that).
    const found = await new ConnectionProcesses(10_000).of(socket);
    expect(found).toEqual({ pid: child.pid, command: "my-agent", cwd: folder });
    socket.destroy();
  } finally {
    child.kill();
  }
});

test.runIf(process.platform === "linux")("a burst of connections is traced together: each to its own process, one inside this process to none", async () => {
  const sockets: Socket[] = [];
  let burst: () => void = () => {};
  const arrived = new Promise<void>((resolve) => (burst = resolve));
  server = createServer((socket) => {
    sockets.push(socket);
    if (sockets.length === 41) burst();
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server!.address() as { port: number };
  const script = (count: number) => `for (let i = 0; i < ${count}; i++) require("net").connect(${port}, "127.0.0.1"); setTimeout(() => {}, 30000);`;
  const one = spawn(process.execPath, ["-e", script(25)], { stdio: "ignore" });
  const other = spawn(process.execPath, ["-e", script(15)], { stdio: "ignore" });
  const mine = connect(port, "127.0.0.1");
  try {
    await arrived;
    const found = await Promise.all(sockets.map((socket) => processOfConnection(socket.remotePort!, socket.localPort!)));
    const pids = found.map((process) => process?.pid);
    expect(pids.filter((pid) => pid === one.pid)).toHaveLength(25);
    expect(pids.filter((pid) => pid === other.pid)).toHaveLength(15);
    expect(pids.filter((pid) => pid === undefined)).toHaveLength(1); // the one from this process
  } finally {
    one.kill();
    other.kill();
    mine.destroy();
    for (const socket of sockets) socket.destroy();
  }
});

test("a lookup slower than the budget answers nothing now and the found process next time", async () => {
  let finish: (value: { pid: number; command: string }) => void = () => {};
  const lookups = new ConnectionProcesses(5, () => new Promise((resolve) => (finish = resolve)));
  const socket = { remotePort: 40000, localPort: 7412 } as Socket;
  expect(await lookups.of(socket)).toBeUndefined();
  expect(await Promise.race([lookups.of(socket), new Promise((resolve) => setImmediate(resolve, "waited"))])).toBeUndefined(); // no second wait
  finish({ pid: 7, command: "codex" });
  await new Promise((resolve) => setImmediate(resolve));
  expect(await lookups.of(socket)).toEqual({ pid: 7, command: "codex" });
});
