import { expect, test } from "vitest";
import { identify, userAgentProduct } from "../../electron/agents/agent-identity";
import { commandName } from "../../electron/agents/command-name";
import { socketInode } from "../../electron/agents/tcp-table";

const claude = { pid: 4242, command: "claude", cwd: "/home/ada/src/api" };
const home = "/home/ada";

test("the lease's agent comes first, then the header, the process, the user-agent, and unknown last", () => {
  const clues = { process: claude, userAgent: "claude-cli/1.0.30 (external, cli)", home };
  expect(identify({ ...clues, leaseAgent: "migrator", header: "reviewer" }).label).toBe("migrator · ~/src/api");
  expect(identify({ ...clues, header: "reviewer" }).label).toBe("reviewer · ~/src/api");
  expect(identify(clues)).toEqual({
    key: "claude · ~/src/api #4242",
    label: "claude · ~/src/api",
    name: "claude",
    pid: 4242,
    command: "claude",
    cwd: "/home/ada/src/api",
    project: "~/src/api",
    userAgent: "claude-cli/1.0.30 (external, cli)",
  });
  expect(identify({ userAgent: "codex_cli_rs/0.44.0 (Ubuntu 24.4.0; x86_64) xterm-256color" }).label).toBe("codex_cli_rs");
  expect(identify({ userAgent: "GeminiCLI/0.9.0 (linux; x64)" }).key).toBe("GeminiCLI");
  expect(identify({}).label).toBe("unknown");
  expect(identify({ header: "   ", userAgent: "" }).label).toBe("unknown");
});

test("names from the wire are tamed: no control character or escape sequence, at most 128 characters", () => {
  const shown = identify({ header: "evil\u001b[2J\u001b]0;pwned\u0007name\u0000\u009b", process: { pid: 1, command: "x".repeat(10_000), cwd: "/tmp/\u001b[31mred" } });
  expect(shown.label).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  expect(shown.label).toMatch(/^evil\?+name\?+ · \/tmp\/\?red$/);
  expect(shown.command!.length).toBe(128);
  expect(identify({ header: "y".repeat(10_000) }).label.length).toBe(128);
  expect(userAgentProduct("\u001b[1mclaude-cli/1")).toBe("?claude-cli");
});

test("a script run by node is named for its package, not for node", () => {
  expect(commandName("node", ["node", "/usr/lib/node_modules/@google/gemini-cli/dist/index.js"])).toBe("gemini-cli");
  expect(commandName("node", ["node", "--no-warnings", "/opt/opencode/bin/opencode"])).toBe("opencode");
  expect(commandName("claude", ["claude", "--resume"])).toBe("claude");
  expect(commandName("node", ["node"])).toBe("node");
  expect(commandName("node", ["node", "-e", "require(1)"])).toBe("node");
});

test("the client's socket is the line whose local port is the connection's remote port", () => {
  const table = [
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
    "   0: 0100007F:1CF4 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 111 1 0 100 0 0 10 0",
    "   1: 0100007F:1CF4 0100007F:A2B1 01 00000000:00000000 00:00000000 00000000  1000        0 222 1 0 20 4 30 10 -1",
    "   2: 0100007F:A2B1 0100007F:1CF4 01 00000000:00000000 00:00000000 00000000  1000        0 333 1 0 20 4 30 10 -1",
  ].join("\n");
  expect(socketInode(table, 0xa2b1, 0x1cf4)).toBe("333");
  expect(socketInode(table, 0xa2b2, 0x1cf4)).toBeUndefined();
  // A socket of another machine's with the same two ports is no agent here; ::1 and ::ffff:127.0.0.1 are.
  const elsewhere = "   3: 0A00020F:A2B3 C0A80001:1CF4 01 00000000:00000000 00:00000000 00000000  1000        0 444 1 0 20 4 30 10 -1";
  const loopback = "   4: 0100007F:A2B3 0100007F:1CF4 01 00000000:00000000 00:00000000 00000000  1000        0 555 1 0 20 4 30 10 -1";
  expect(socketInode([elsewhere, loopback].join("\n"), 0xa2b3, 0x1cf4)).toBe("555");
  const six = "   0: 00000000000000000000000001000000:A2B4 00000000000000000000000001000000:1CF4 01 00000000:00000000 00:00000000 00000000  1000 0 666 1";
  const mapped = "   1: 0000000000000000FFFF00000100007F:A2B5 0000000000000000FFFF00000100007F:1CF4 01 00000000:00000000 00:00000000 00000000  1000 0 777 1";
  expect(socketInode(six, 0xa2b4, 0x1cf4)).toBe("666");
  expect(socketInode(mapped, 0xa2b5, 0x1cf4)).toBe("777");
});
