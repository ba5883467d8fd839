// SPEC §9 "What it cost" through a real host, proxy and fake provider: `GET /usage` by project,
// day and hour, `days=N` over the per-day counter (a seeded yesterday read back from the data
// folder), the CLI's COST column, and bad spans refused with what is allowed.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { localDay } from "../../electron/engine/local-day";
import { cliEnv, runCli } from "../support/cli-harness";
import { post, startProxyHarness, type ProxyHarness } from "../support/proxy-harness";
import { tempDir } from "../support/test-host";

let h: ProxyHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const HOUR_MS = 3_600_000;
const message = (model: string) => ({ model, max_tokens: 16, stream: true, messages: [{ role: "user", content: "hi" }] });
const tokens = (input: number, output: number, cacheRead = 0, cacheWrite = 0) => ({ input, output, cacheRead, cacheWrite });

/** Yesterday, as the per-day counter left it: one agent in ~/src/api that cost $1.25. */
function seededDataDir(yesterday: string): string {
  const dataDir = tempDir();
  mkdirSync(join(dataDir, "usage"), { recursive: true });
  const row = { agent: "planner · ~/src/api", project: "~/src/api", requests: 3, rateLimited: 0, errors: 0, tokens: tokens(1000, 500), costUsd: 1.25, unpriced: 0 };
  writeFileSync(join(dataDir, "usage", "days.json"), JSON.stringify({ schemaVersion: 2, days: { [yesterday]: { anthropic: [row] } } }));
  return dataDir;
}

async function drive(h: ProxyHarness): Promise<void> {
  // claude-sonnet-4-5 at $3 in and $15 out per million: 10 × 3 + 4 × 15 = $0.00009 an answer;
  // claude-test has no price: its tokens count, it is `unpriced`.
  for (const model of ["claude-sonnet-4-5", "claude-sonnet-4-5", "claude-test"]) {
    expect((await post(`${h.base}/v1/messages`, message(model), { "x-headroom-agent": "reviewer" })).status).toBe(200);
  }
}

test("usage by day, project and hour: today from the proxy's answers, yesterday from the data folder, priced by hand", async () => {
  const today = localDay(Date.now());
  const yesterday = localDay(today.start - 1).date;
  h = await startProxyHarness({ fake: { events: 4, eventDelayMs: 0 }, host: { dataDir: seededDataDir(yesterday) } });
  await drive(h);
  const todayRow = { requests: 3, rateLimited: 0, errors: 0, tokens: tokens(30, 12), costUsd: expect.closeTo(0.00018, 12), unpriced: 1 };

  const oneDay = await h.client.usage({ by: "day", days: 1 });
  expect(oneDay.since).toBe(localDay(oneDay.until).start);
  expect(oneDay.rows).toEqual([{ day: localDay(oneDay.until).date, ...todayRow }]);

  const twoDays = await h.client.usage({ by: "day", days: 2 });
  expect(twoDays.rows.map((row) => [row.day, row.requests, row.costUsd])).toEqual([
    [yesterday, 3, 1.25],
    [localDay(twoDays.until).date, 3, expect.closeTo(0.00018, 12)],
  ]);
  // Eight dates are kept; only two have counts.
  expect((await h.client.usage({ by: "day", days: 8 })).rows).toHaveLength(2);

  // A request whose folder is not known counts under `unknown`; the seeded one under its folder.
  expect((await h.client.usage({ by: "project", days: 2 })).rows).toEqual([
    { project: "~/src/api", requests: 3, rateLimited: 0, errors: 0, tokens: tokens(1000, 500), costUsd: 1.25, unpriced: 0 },
    { project: "unknown", ...todayRow },
  ]);
  expect((await h.client.usage({ by: "project" })).rows).toEqual([{ project: "unknown", ...todayRow }]);
  expect((await h.client.usage({ by: "agent", days: 1 })).rows).toEqual([{ agent: "reviewer", ...todayRow }]);

  // By hour, oldest first: the window's tokens-per-hour chart reads these.
  const hours = (await h.client.usage({ by: "hour", hours: 24 })).rows;
  expect(hours.every((row) => row.hour !== undefined && row.hour % HOUR_MS === 0)).toBe(true);
  expect(hours.reduce((sum, row) => sum + row.tokens.input + row.tokens.output, 0)).toBe(42);
});

test("bad usage spans are refused with what is allowed", async () => {
  h = await startProxyHarness();
  const cases: [string, RegExp][] = [
    ["by=week", /by must be one of agent, provider, model, project, day, hour \(got "week"\)/],
    ["days=0", /days must be an integer from 1 to 8/],
    ["days=9", /days must be an integer from 1 to 8/],
    ["days=1.5", /days must be an integer from 1 to 8/],
    ["hours=5&days=2", /hours and days must not be given together: give hours \(an integer from 1 to 192\) or days \(an integer from 1 to 8\)/],
  ];
  for (const [query, message] of cases) {
    const answer = await fetch(`${h.url}/usage?${query}`, { headers: { authorization: `Bearer ${h.host.token}` } });
    expect(answer.status, query).toBe(400);
    const body = (await answer.json()) as { error: { code: string; message: string } };
    expect(body.error.code, query).toBe("invalid_input");
    expect(body.error.message, query).toMatch(message);
  }
});

test("headroom usage --by day --days 2 and headroom agents print a COST column; unpriced is said", async () => {
  const yesterday = localDay(localDay(Date.now()).start - 1).date;
  h = await startProxyHarness({ fake: { events: 4, eventDelayMs: 0 }, host: { dataDir: seededDataDir(yesterday) } });
  await drive(h);
  const env = cliEnv(h);

  const byDay = await runCli(["usage", "--by", "day", "--days", "2"], env);
  expect(byDay.code).toBe(0);
  expect(byDay.stdout).toMatch(/^DAY\s+REQUESTS\s+429S\s+ERRORS\s+INPUT\s+OUTPUT\s+CACHE READ\s+CACHE WRITE\s+COST\n/);
  expect(byDay.stdout).toContain(`${yesterday}  3         0     0       1.0k   500     0           0            $1.25\n`);
  expect(byDay.stdout).toMatch(/\n\d{4}-\d{2}-\d{2}\s+3\s+0\s+0\s+30\s+12\s+0\s+0\s+\$0\.0002 \+ 1 unpriced\n/);
  expect(byDay.stdout).toContain("Today and the day before, by day");
  expect(byDay.stdout).toContain("Unpriced: requests to a model the price library does not know");

  const byProject = await runCli(["usage", "--by", "project", "--days", "2"], env);
  expect(byProject.stdout).toMatch(/^PROJECT\s+.+COST\n~\/src\/api\s+3\s.+\$1\.25\nunknown\s+3\s.+\$0\.0002 \+ 1 unpriced\n/);

  const agents = await runCli(["agents"], env);
  expect(agents.stdout).toMatch(/^AGENT\s+PROVIDER\s+STATE\s+SEEN\s+PID\s+REQUESTS\s+INPUT\s+OUTPUT\s+CACHE READ\s+CACHE WRITE\s+COST\n/);
  expect(agents.stdout).toMatch(/\nreviewer\s+anthropic\s+idle\s+.+? ago\s+-\s+3\s+30\s+12\s+0\s+0\s+\$0\.0002 \+ 1 unpriced\n/);

  const both = await runCli(["usage", "--hours", "5", "--days", "2"], env);
  expect(both.code).toBe(64);
  expect(both.stderr).toMatch(/hours and days must not be given together/);
  const tooMany = await runCli(["usage", "--days", "9"], env);
  expect(tooMany.code).toBe(64);
  expect(tooMany.stderr).toMatch(/days must be an integer from 1 to 8/);
});
