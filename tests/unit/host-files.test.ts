import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { loadOrCreateToken } from "../../electron/host/api-token";
import { readToken, tokenFilePath } from "../../electron/data-folder/token-file";
import { defaultDataDir, resolveDataDir } from "../../electron/data-folder/data-dir";
import { acquireHostLock, type HostLock } from "../../electron/host/host-lock";

const made: string[] = [];
function fresh(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "headroom-host-"));
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

/** A pid that surely belongs to no process: one that has just exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid!;
}

const sleepers: ChildProcess[] = [];
afterEach(() => {
  for (const child of sleepers.splice(0)) child.kill("SIGKILL");
});

/** A live process of ours, started now; killed after the test. */
async function sleeper(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  sleepers.push(child);
  await new Promise((resolve) => child.once("spawn", resolve));
  return child as ChildProcess & { pid: number };
}

function held(result: HostLock | { refused: string }): HostLock {
  if ("refused" in result) throw new Error(`expected the lock, got: ${result.refused}`);
  return result;
}

describe("data folder", () => {
  test("defaults to Electron's userData folder for Headroom on each platform", () => {
    expect(defaultDataDir("linux", {}, "/home/ada")).toBe("/home/ada/.config/Headroom");
    expect(defaultDataDir("linux", { XDG_CONFIG_HOME: "/xdg" }, "/home/ada")).toBe("/xdg/Headroom");
    expect(defaultDataDir("linux", { XDG_CONFIG_HOME: "" }, "/home/ada")).toBe("/home/ada/.config/Headroom");
    expect(defaultDataDir("darwin", { XDG_CONFIG_HOME: "/xdg" }, "/Users/ada")).toBe(
      "/Users/ada/Library/Application Support/Headroom",
    );
    expect(defaultDataDir("win32", { APPDATA: "C:\\Users\\ada\\AppData\\Roaming" }, "C:\\Users\\ada")).toBe(
      "C:\\Users\\ada\\AppData\\Roaming\\Headroom",
    );
    expect(defaultDataDir("win32", {}, "C:\\Users\\ada")).toBe("C:\\Users\\ada\\AppData\\Roaming\\Headroom");
  });

  test("--data-dir wins over HEADROOM_DATA_DIR, which wins over the default", () => {
    const env = { HEADROOM_DATA_DIR: "/from/env", XDG_CONFIG_HOME: "/xdg" };
    expect(resolveDataDir("/from/flag", env)).toBe("/from/flag");
    expect(resolveDataDir(undefined, env)).toBe("/from/env");
    expect(resolveDataDir("relative/dir", env)).toBe(path.resolve("relative/dir"));
    expect(resolveDataDir(undefined, { HEADROOM_DATA_DIR: "" })).toBe(defaultDataDir(process.platform, {}));
  });
});

describe("API token", () => {
  test("is created once, owner-only, and the same token comes back on every start", () => {
    const dir = path.join(fresh(), "Headroom");
    const token = loadOrCreateToken(dir, {});
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
    expect(modeOf(tokenFilePath(dir))).toBe(0o600);
    expect(loadOrCreateToken(dir, {})).toBe(token);
    expect(readToken(dir, {})).toBe(token);
    expect(fs.readdirSync(dir)).toEqual(["api-token"]); // no temp files left behind
  });

  test("HEADROOM_TOKEN wins and no file is created", () => {
    const dir = fresh();
    expect(loadOrCreateToken(dir, { HEADROOM_TOKEN: " secret \n" })).toBe("secret");
    expect(fs.existsSync(tokenFilePath(dir))).toBe(false);
    expect(readToken(dir, { HEADROOM_TOKEN: "secret" })).toBe("secret");
    expect(loadOrCreateToken(dir, { HEADROOM_TOKEN: "" })).not.toBe("");
  });

  test("a file someone widened is tightened back to 0600; an emptied one is replaced", () => {
    const dir = fresh();
    fs.writeFileSync(tokenFilePath(dir), "kept-token\n", { mode: 0o644 });
    fs.chmodSync(tokenFilePath(dir), 0o644);
    expect(loadOrCreateToken(dir, {})).toBe("kept-token");
    expect(modeOf(tokenFilePath(dir))).toBe(0o600);

    fs.writeFileSync(tokenFilePath(dir), "  \n");
    const replaced = loadOrCreateToken(dir, {});
    expect(replaced).toHaveLength(43);
    expect(readToken(dir, {})).toBe(replaced);
  });

  test("readToken is undefined when there is neither variable nor file", () => {
    expect(readToken(path.join(fresh(), "missing"), {})).toBeUndefined();
  });
});

describe("host lock", () => {
  test("a second host on the same folder is refused with a message naming the first", () => {
    const dir = fresh();
    const first = held(acquireHostLock(dir, { kind: "serve" }));
    first.update({ kind: "serve", url: "http://127.0.0.1:7411" });
    expect(JSON.parse(fs.readFileSync(first.path, "utf8"))).toMatchObject({
      pid: process.pid,
      kind: "serve",
      url: "http://127.0.0.1:7411",
    });

    const second = acquireHostLock(dir, { kind: "app" });
    expect(second).toEqual({
      refused: expect.stringContaining(
        `Another Headroom host (serve, pid ${process.pid}, http://127.0.0.1:7411) is already using ${dir}. ` +
          "Stop it first or pass a different --data-dir.",
      ) as string,
    });
    first.release();
    expect(fs.existsSync(first.path)).toBe(false);
    held(acquireHostLock(dir, { kind: "app" })).release();
  });

  test("a lock whose process is gone is taken over", async () => {
    const dir = fresh();
    const pid = await deadPid();
    fs.writeFileSync(path.join(dir, "host.lock"), JSON.stringify({ pid, kind: "app", startedAt: 1 }));
    const lock = held(acquireHostLock(dir, { kind: "serve" }));
    expect(JSON.parse(fs.readFileSync(lock.path, "utf8"))).toMatchObject({ pid: process.pid, kind: "serve" });
    lock.release();
  });

  test("a lock whose pid now belongs to a process that started after it was written is taken over", async () => {
    const dir = fresh();
    const writtenAt = Date.now() - 10_000; // a host that wrote this 10 s ago, then died
    const stranger = await sleeper(); // a new process that happens to get the same pid
    fs.writeFileSync(path.join(dir, "host.lock"), JSON.stringify({ pid: stranger.pid, kind: "app", startedAt: writtenAt }));
    const lock = held(acquireHostLock(dir, { kind: "serve" }));
    expect(JSON.parse(fs.readFileSync(lock.path, "utf8"))).toMatchObject({ pid: process.pid, kind: "serve" });
    lock.release();
  });

  test("a lock written by a live process that started before it is respected", async () => {
    const dir = fresh();
    const host = await sleeper();
    fs.writeFileSync(path.join(dir, "host.lock"), JSON.stringify({ pid: host.pid, kind: "serve", startedAt: Date.now() }));
    expect(acquireHostLock(dir, { kind: "serve" })).toEqual({
      refused: expect.stringContaining(`(serve, pid ${host.pid})`) as string,
    });
  });

  test("an unreadable lock file is taken over", () => {
    const dir = fresh();
    fs.writeFileSync(path.join(dir, "host.lock"), "");
    held(acquireHostLock(dir, { kind: "serve" })).release();
  });

  test("a lock held by a live process of another user (EPERM) is respected", () => {
    const dir = fresh();
    // pid 1 exists on every Unix; unprivileged, kill(1, 0) answers EPERM, as root it succeeds.
    // It started before now, so it may well have written a lock dated now.
    fs.writeFileSync(path.join(dir, "host.lock"), JSON.stringify({ pid: 1, kind: "app", startedAt: Date.now() }));
    expect(acquireHostLock(dir, { kind: "serve" })).toEqual({
      refused: expect.stringContaining("(app, pid 1)") as string,
    });
  });

  test("release removes only our own lock", () => {
    const dir = fresh();
    const lock = held(acquireHostLock(dir, { kind: "serve" }));
    // Someone else took the folder over (e.g. after judging us stale): not ours to delete.
    const theirs = JSON.stringify({ pid: 1, kind: "app", startedAt: 5 });
    fs.writeFileSync(lock.path, theirs);
    lock.release();
    expect(fs.readFileSync(lock.path, "utf8")).toBe(theirs);
    lock.update({ kind: "serve", url: "http://127.0.0.1:1" });
    expect(fs.readFileSync(lock.path, "utf8")).toBe(theirs);
  });
});
