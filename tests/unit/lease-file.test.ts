// Held leases on disk (electron/settings/lease-file.ts): leases.json beside settings.json, real
// files in temp folders. The kill -9 rounds are in tests/integration/crash-durability.test.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { openLeaseFile } from "../../electron/settings/lease-file";
import { openSettings, type SettingsStore } from "../../electron/settings/settings-store";
import type { StoredLease } from "../../shared/schemas";

const made: string[] = [];
const open: SettingsStore[] = [];
function fresh(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "headroom-leases-"));
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const store of open.splice(0)) store.close();
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const leasesFile = (dir: string) => path.join(dir, "leases.json");
const settingsFile = (dir: string) => path.join(dir, "settings.json");
const onDisk = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
const asideFiles = (dir: string) => fs.readdirSync(dir).filter((name) => name.startsWith("leases.corrupt-"));
const held = (leaseId: string, providerId = "anthropic"): StoredLease => ({
  leaseId,
  providerId,
  agentId: "claude-1",
  admittedAt: 1_764_500_000_000,
  expiresAt: 1_764_500_120_000,
  ttlMs: 120_000,
});
const settingsIn = (dir: string) => {
  const store = openSettings({ dir });
  open.push(store);
  return store;
};

describe("writing", () => {
  test("held leases survive a reopen, in an owner-only file with no temp file left beside it", () => {
    const dir = fresh();
    const file = openLeaseFile(dir);
    expect(file.write([held("a"), held("b", "openai")])).toBeUndefined();
    expect(fs.statSync(leasesFile(dir)).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(["leases.json"]);
    expect(openLeaseFile(dir).read()).toEqual([held("a"), held("b", "openai")]);
  });

  test("a write that fails leaves the previous file whole, says why, and the next one clears it", () => {
    const dir = fresh();
    const file = openLeaseFile(dir);
    file.write([held("a")]);
    // Tests run as root, where chmod stops nothing: a plain file in the folder's place makes the write fail.
    const away = `${dir}-away`;
    made.push(away);
    fs.renameSync(dir, away);
    fs.writeFileSync(dir, "");
    expect(file.write([held("a"), held("b")])).toMatch(/^E[A-Z]+/);
    expect(file.notices()).toEqual([expect.stringContaining(`Held leases could not be saved to ${leasesFile(dir)} (E`) as string]);
    expect(onDisk(leasesFile(away)).leases).toEqual([held("a")]);

    fs.rmSync(dir);
    fs.renameSync(away, dir);
    expect(file.write([held("a"), held("b")])).toBeUndefined();
    expect(file.notices()).toEqual([]);
    expect(onDisk(leasesFile(dir)).leases).toEqual([held("a"), held("b")]);
  });

  test("a symlink planted where the temp file used to be named is never followed (SPEC §5)", async () => {
    const dir = fresh();
    const victim = path.join(fresh(), "victim.txt");
    fs.writeFileSync(victim, "precious");
    const file = openLeaseFile(dir);
    fs.symlinkSync(victim, `${leasesFile(dir)}.tmp-${process.pid}`);
    expect(file.write([held("a")])).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve)); // the next write's temp file is made ahead
    expect(file.write([held("a"), held("b")])).toBeUndefined();
    expect(fs.readFileSync(victim, "utf8")).toBe("precious");
    expect(onDisk(leasesFile(dir)).leases).toEqual([held("a"), held("b")]);
    file.close();
  });

  test("after close nothing is written (a late lease event during shutdown), and no temp file is left", async () => {
    const dir = fresh();
    const file = openLeaseFile(dir);
    file.write([held("a")]);
    await new Promise((resolve) => setImmediate(resolve)); // the next write's temp file is made ahead
    file.close();
    expect(file.write([])).toBeUndefined();
    expect(onDisk(leasesFile(dir)).leases).toEqual([held("a")]);
    expect(fs.readdirSync(dir)).toEqual(["leases.json"]);
  });

  test("temp files left by a write that was killed are removed at start; other files stay", () => {
    const dir = fresh();
    openLeaseFile(dir).write([held("a")]);
    fs.writeFileSync(`${leasesFile(dir)}.tmp-4242`, '{"schemaVersion":1,"leases":[{"lea');
    fs.writeFileSync(path.join(dir, "notes.json.tmp-4242"), "not ours");
    expect(openLeaseFile(dir).read()).toEqual([held("a")]);
    expect(fs.readdirSync(dir).sort()).toEqual(["leases.json", "notes.json.tmp-4242"]);
  });

  test("a host killed after removing the old file, before renaming the new one: the complete new one is used", () => {
    const dir = fresh();
    const whole = JSON.stringify({ schemaVersion: 1, leases: [held("a"), held("b")] });
    fs.writeFileSync(`${leasesFile(dir)}.tmp-4242`, whole);
    fs.writeFileSync(`${leasesFile(dir)}.tmp-4243`, '{"schemaVersion":1,"leases":[{"lea'); // an earlier leftover
    fs.utimesSync(`${leasesFile(dir)}.tmp-4243`, new Date(0), new Date(0));
    const file = openLeaseFile(dir);
    expect(file.read()).toEqual([held("a"), held("b")]);
    expect(file.notices()).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual(["leases.json"]);
  });

  test("a first write cut short by a kill leaves nothing to restore and no notice", () => {
    const dir = fresh();
    fs.writeFileSync(`${leasesFile(dir)}.tmp-4242`, '{"schemaVersion":1,"leases":[{"lea');
    const file = openLeaseFile(dir);
    expect(file.read()).toEqual([]);
    expect(file.notices()).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe("a leases file that cannot be trusted is moved aside, owner-only, with a notice", () => {
  test.each([
    ["truncated JSON", '{"schemaVersion":1,"leases":[{"leaseId":"a"', /was corrupt \(.+\)/],
    ["an empty file (what a power cut can leave)", "", /was corrupt \(.+\)/],
    ["an ill-typed lease", JSON.stringify({ schemaVersion: 1, leases: [{ ...held("a"), admittedAt: "now" }] }), /leases\.0\.admittedAt must be a time in epoch milliseconds \(got "now"\)/],
    ["a newer layout", JSON.stringify({ schemaVersion: 2, leases: [] }), /is from a newer Headroom \(schemaVersion 2/],
  ])("%s", (_name, text, problem) => {
    const dir = fresh();
    fs.writeFileSync(leasesFile(dir), text, { mode: 0o644 });
    const file = openLeaseFile(dir);
    expect(file.read()).toEqual([]);
    const [aside, ...more] = asideFiles(dir);
    expect(more).toEqual([]);
    expect(aside).toMatch(/^leases\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.json$/);
    expect(fs.readFileSync(path.join(dir, aside!), "utf8")).toBe(text);
    expect(fs.statSync(path.join(dir, aside!)).mode & 0o777).toBe(0o600);
    expect(file.notices()).toHaveLength(1);
    expect(file.notices()[0]).toMatch(problem);
    expect(file.notices()[0]).toContain(`moved aside to ${path.join(dir, aside!)}; no lease was restored.`);
    expect(file.write([held("b")])).toBeUndefined();
    expect(openLeaseFile(dir).read()).toEqual([held("b")]);
  });

  test("the settings store shows the notice in its own", () => {
    const dir = fresh();
    fs.writeFileSync(leasesFile(dir), "{not json");
    expect(settingsIn(dir).notices()).toEqual([expect.stringMatching(/^Held leases file was corrupt/) as string]);
  });
});

describe("moving leases out of an older Headroom's settings.json", () => {
  // Written by the previous release (conf, through openSettings), leases and all.
  const oldFormat = fs.readFileSync(path.join(import.meta.dirname, "../fixtures/settings-with-leases.json"), "utf8");
  const oldLeases = (JSON.parse(oldFormat) as { leases: StoredLease[] }).leases;

  test("its leases move to leases.json once, and settings.json keeps everything else", () => {
    const dir = fresh();
    fs.writeFileSync(settingsFile(dir), oldFormat, { mode: 0o600 });
    const store = settingsIn(dir);
    expect(store.notices()).toEqual([]);
    expect(store.leases.read()).toEqual(oldLeases);
    expect(onDisk(leasesFile(dir)).leases).toEqual(oldLeases);
    expect(fs.statSync(leasesFile(dir)).mode & 0o777).toBe(0o600);
    const settings = onDisk(settingsFile(dir));
    expect(settings).not.toHaveProperty("leases");
    expect(settings.providers).toEqual(store.read().providers);
    expect(store.read().providers.anthropic).toMatchObject({ limit: 4 });
    store.close();

    // The next start reads them from leases.json; settings.json is not written again.
    const settingsText = fs.readFileSync(settingsFile(dir), "utf8");
    const again = settingsIn(dir);
    expect(again.leases.read()).toEqual(oldLeases);
    expect(again.notices()).toEqual([]);
    expect(fs.readFileSync(settingsFile(dir), "utf8")).toBe(settingsText);
  });

  test("an older Headroom that ran after this one wrote settings.json last: its leases win", () => {
    const dir = fresh();
    openLeaseFile(dir).write([held("stale")]);
    fs.writeFileSync(settingsFile(dir), oldFormat, { mode: 0o600 });
    expect(settingsIn(dir).leases.read()).toEqual(oldLeases);
    expect(onDisk(leasesFile(dir)).leases).toEqual(oldLeases);
  });

  test("when leases.json cannot be written, settings.json keeps them for the next start", () => {
    // Tests run as root, where chmod stops nothing: a folder so deep that leases.json still has a
    // path (PATH_MAX 4096) but its temp file beside it has none makes every write fail.
    let dir = fresh();
    while (`${dir}/leases.json`.length < 4_080 - 200) dir = path.join(dir, "d".repeat(200));
    dir = path.join(dir, "d".repeat(4_080 - `${dir}/leases.json`.length - 1));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(settingsFile(dir), oldFormat, { mode: 0o600 });
    const store = settingsIn(dir);
    expect(store.leases.read()).toEqual(oldLeases); // held in memory, restored by the service
    expect(store.notices()).toEqual([expect.stringContaining("Held leases could not be saved") as string]);
    expect(fs.readFileSync(settingsFile(dir), "utf8")).toBe(oldFormat);
  });
});
