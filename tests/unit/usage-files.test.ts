// SPEC §9 and issue 27 item 3: usage counts on disk in per-hour files, written without stalling
// the event loop, bounded, and read back without trusting what is in the folder.
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { UsageDays } from "../../electron/agents/usage-days";
import { hourFileName } from "../../electron/agents/usage-file-shapes";
import { openUsageFiles } from "../../electron/agents/usage-files";
import { HOUR_MS, KEEP_HOURS, UsageLedger } from "../../electron/agents/usage-ledger";
import { createFakeClock } from "../support/fake-clock";
import { removeDir, tempDir } from "../support/test-host";

const start = Date.UTC(2026, 11, 6, 23);
const tokens = (input: number, output = 0) => ({ input, output, cacheRead: 0, cacheWrite: 0 });

let dir: string | undefined;
afterEach(() => dir && removeDir(dir));

function open(dataDir: string, clock = createFakeClock(start)) {
  const ledger = new UsageLedger();
  const days = new UsageDays(() => "2026-12-06");
  const files = openUsageFiles(dataDir, ledger, days, clock);
  const count = (agent: string, at = clock.now(), input = 1) => {
    const event = { providerId: "anthropic", agent, model: "opus", project: "~/src/api", tokens: tokens(input) };
    ledger.add(at, event);
    days.add(at, event);
    files.changed();
  };
  const requests = () => Object.fromEntries(ledger.rows(0, "agent").map((row) => [row.agent, row.requests]));
  return { clock, ledger, days, files, count, requests };
}

const asideIn = (folder: string, prefix: string) => readdirSync(folder).filter((name) => name.startsWith(`${prefix}.bad-`));

test("only the hours that changed are written, at most every 5 s and at close, and read back whole", async () => {
  dir = tempDir();
  const first = open(dir);
  first.count("claude", start - HOUR_MS);
  first.count("claude");
  first.clock.advance(4_999);
  expect(existsSync(join(dir, "usage", hourFileName(start)))).toBe(false);
  first.clock.advance(1);
  await first.files.idle();
  const earlier = join(dir, "usage", hourFileName(start - HOUR_MS));
  const inodeBefore = statSync(earlier).ino;
  first.count("codex");
  first.clock.advance(5_000);
  await first.files.idle();
  expect(statSync(earlier).ino).toBe(inodeBefore); // an hour nobody counted in is not written again
  first.count("gemini");
  first.files.close();
  expect(statSync(join(dir, "usage", hourFileName(start))).mode & 0o777).toBe(0o600);
  const again = open(dir);
  expect(again.files.notices()).toEqual([]);
  expect(again.requests()).toEqual({ claude: 2, codex: 1, gemini: 1 });
  expect(again.days.total("anthropic", "2026-12-06").requests).toBe(4);
});

test("at the cap the files stay a few MB and a write never stalls the event loop", async () => {
  dir = tempDir();
  const { clock, ledger, files, count } = open(dir);
  // 1,000 new names every hour for 8 days: what a local process can send (issue 27).
  for (let hour = KEEP_HOURS - 1; hour >= 0; hour--) {
    for (let i = 0; i < 1_000; i++) ledger.add(start - hour * HOUR_MS, { providerId: "anthropic", agent: `agent-${hour}-${i} · ~/src/project-${i}`, model: "claude-sonnet-4-5-20250929", tokens: tokens(100 + i, 50) });
  }
  files.changed();
  clock.advance(5_000);
  await files.idle();
  const folder = join(dir, "usage");
  const bytes = readdirSync(folder).reduce((sum, name) => sum + statSync(join(folder, name)).size, 0);
  expect(bytes).toBeLessThan(4.5 * 1024 * 1024); // the single usage.json was 36 MB here

  let longest = 0;
  let last = performance.now();
  let probing = true;
  const probe = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (probing) setImmediate(probe);
  };
  setImmediate(probe);
  for (let i = 0; i < 50; i++) count(`late-${i}`);
  clock.advance(5_000);
  await files.idle();
  await new Promise((resolve) => setImmediate(resolve));
  probing = false;
  // The whole-file write stalled 737–855 ms; an hour's file is a few ms. Generous for a loaded machine.
  expect(longest).toBeLessThan(200);
  // The hour already holds 1,000 names: the late ones count as other, none is lost.
  expect(ledger.rows(0, "agent").reduce((sum, row) => sum + row.requests, 0)).toBe(KEEP_HOURS * 1_000 + 50);
}, 120_000);

test("a named pipe in a usage file's place neither hangs start-up nor is read; it is moved aside", () => {
  dir = tempDir();
  const folder = join(dir, "usage");
  mkdirSync(folder);
  execFileSync("mkfifo", [join(folder, hourFileName(start))]);
  execFileSync("mkfifo", [join(folder, "days.json")]);
  execFileSync("mkfifo", [join(dir, "usage.json")]);
  const { files, requests } = open(dir);
  expect(files.notices()).toHaveLength(3);
  expect(files.notices().join("\n")).toMatch(/named pipe/);
  expect(asideIn(folder, hourFileName(start))).toHaveLength(1);
  expect(asideIn(dir, "usage.json")).toHaveLength(1);
  expect(requests()).toEqual({});
}, 60_000);

test("a link to /dev/zero is not read, and the link (not /dev/zero) is moved aside", () => {
  dir = tempDir();
  const folder = join(dir, "usage");
  mkdirSync(folder);
  symlinkSync("/dev/zero", join(folder, hourFileName(start)));
  symlinkSync("/dev/zero", join(dir, "usage.json"));
  const modeBefore = statSync("/dev/zero").mode;
  const { files } = open(dir);
  expect(files.notices()).toEqual([expect.stringContaining("symbolic link"), expect.stringContaining("symbolic link")]);
  const [aside] = asideIn(folder, hourFileName(start));
  expect(lstatSync(join(folder, aside!)).isSymbolicLink()).toBe(true);
  expect(statSync("/dev/zero").mode).toBe(modeBefore);
}, 60_000);

test("a folder in a usage file's place is moved aside with a notice, and counting goes on", async () => {
  dir = tempDir();
  const folder = join(dir, "usage");
  mkdirSync(join(folder, hourFileName(start)), { recursive: true });
  mkdirSync(join(folder, "days.json"));
  const { files, count, clock } = open(dir);
  expect(files.notices()).toEqual([expect.stringContaining("it is a folder"), expect.stringContaining("it is a folder")]);
  count("claude");
  clock.advance(5_000);
  await files.idle();
  expect(files.notices()).toHaveLength(2); // no write error: the files took the folders' places
  expect(statSync(join(folder, hourFileName(start))).isFile()).toBe(true);
});

test("a corrupt, truncated or wrong-shape file is moved aside and the rest of the counts are kept", () => {
  dir = tempDir();
  const first = open(dir);
  first.count("claude", start - 2 * HOUR_MS);
  first.count("codex", start - HOUR_MS);
  first.count("gemini");
  first.files.close();
  const folder = join(dir, "usage");
  const truncated = join(folder, hourFileName(start - 2 * HOUR_MS));
  writeFileSync(truncated, readFileSync(truncated, "utf8").slice(0, 40));
  writeFileSync(join(folder, hourFileName(start - HOUR_MS)), JSON.stringify({ schemaVersion: 2, hour: start - HOUR_MS, providers: [] }));
  const again = open(dir);
  expect(again.files.notices()).toEqual([
    expect.stringMatching(/^Usage counts file .* could not be read \(providers is not an object\) and was moved aside to .*\.bad-/),
    expect.stringMatching(/could not be read \(not JSON: .*\) and was moved aside/),
  ]);
  expect(again.requests()).toEqual({ gemini: 1 });
});

test("a version-1 usage.json is migrated once: counts kept, names tamed, sums past 2^53 held, the file moved aside", () => {
  dir = tempDir();
  const row = (agent: string, hour: number, input: number) => ({ hour, providerId: "anthropic", agent, model: "opus", requests: 3, rateLimited: 1, errors: 0, tokens: tokens(input, 5) });
  const series = [row("claude · ~/api", start - HOUR_MS, 10), row("claude · ~/api", start, 20), row("evil\u001b[2Jname", start, 2 ** 60)];
  writeFileSync(join(dir, "usage.json"), JSON.stringify({ schemaVersion: 1, series }));
  const first = open(dir);
  expect(first.files.notices()).toEqual([]);
  const rows = first.ledger.rows(0, "agent");
  expect(rows).toEqual([
    { agent: "evil?name", requests: 3, rateLimited: 1, errors: 0, tokens: tokens(Number.MAX_SAFE_INTEGER, 5), costUsd: 0, unpriced: 0 },
    { agent: "claude · ~/api", requests: 6, rateLimited: 2, errors: 0, tokens: tokens(30, 10), costUsd: 0, unpriced: 0 },
  ]);
  expect(existsSync(join(dir, "usage.json"))).toBe(false);
  expect(readdirSync(dir).filter((name) => name.startsWith("usage.json.migrated-"))).toHaveLength(1);
  first.files.close();
  expect(open(dir).ledger.rows(0, "agent")).toEqual(rows); // read once: nothing counted twice
});
