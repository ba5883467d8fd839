// SPEC §3 "Scale" at start-up: a settings file holding more than the 1,000 providers a host
// keeps (10,001 did load whole: every status 1.5 MB, four readers got 1.1 GB in 10 s) loads the
// first 1,000 by id, keeps the whole file beside the new one, and the status says what was left out.
import fs from "node:fs";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { CURRENT_SCHEMA_VERSION } from "../../shared/schemas";
import { removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";

const started: TestHost[] = [];
afterEach(async () => {
  for (const h of started.splice(0)) {
    await h.stop();
    removeDir(h.dataDir);
  }
});

/** SPEC §3 names the figure; the test keeps its own copy so it cannot drift with LIMITS. */
const MAX_PROVIDERS = 1_000;
const idOf = (i: number) => `p${String(i).padStart(5, "0")}`;

test("a settings file with 10,001 providers loads the first 1,000 by id, keeps the whole file aside, and says what was left out", async () => {
  const dir = tempDir();
  // Written in reverse, so "the first by id" is not merely the file's order.
  const providers = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [idOf(10_000 - i), { limit: 4 }]));
  const written = JSON.stringify({ schemaVersion: CURRENT_SCHEMA_VERSION, providers });
  fs.writeFileSync(path.join(dir, "settings.json"), written);

  const h = await startTestHost({ dataDir: dir });
  started.push(h);
  const status = await h.client.status();
  expect(status.providers).toHaveLength(MAX_PROVIDERS);
  const ids = status.providers.map((p) => p.providerId).sort();
  expect(ids[0]).toBe("p00000");
  expect(ids.at(-1)).toBe("p00999");

  const aside = fs.readdirSync(dir).filter((name) => /^settings\.over-cap-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.json$/.test(name));
  expect(aside).toHaveLength(1);
  expect(fs.readFileSync(path.join(dir, aside[0]!), "utf8")).toBe(written);
  const onDisk = JSON.parse(fs.readFileSync(path.join(dir, "settings.json"), "utf8")) as { providers: Record<string, unknown> };
  expect(Object.keys(onDisk.providers)).toHaveLength(MAX_PROVIDERS);

  const notice = status.notices?.find((n) => n.includes("over") || n.includes("left out"));
  expect(notice).toBe(
    `Settings file held 10001 providers, more than the 1000 a host keeps: the first 1000 by id are loaded and 9001 were left out ` +
      `(p01000, p01001, p01002, p01003, p01004 and 8996 more). The whole file was kept at ${path.join(dir, aside[0]!)}.`,
  );
  // One more is still refused: the cap holds after the load.
  await expect(h.client.setLimit("one-more", 1)).rejects.toMatchObject({ status: 409 });
}, 60_000);
