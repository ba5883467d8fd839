// Issue 27 item 3: a usage file the host cannot trust is moved aside and the status says so,
// as it does for settings.json (AgentsService's notices reach GET /concurrency/status).
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { hourFileName } from "../../electron/agents/usage-file-shapes";
import { HOUR_MS } from "../../electron/agents/usage-ledger";
import { removeDir, startTestHost, tempDir, type TestHost } from "../support/test-host";

let host: TestHost | undefined;
afterEach(async () => {
  await host?.stop();
  if (host) removeDir(host.dataDir);
  host = undefined;
});

test("a corrupt usage file is moved aside and named in the status notices", async () => {
  const dataDir = tempDir();
  const folder = join(dataDir, "usage");
  mkdirSync(folder);
  const name = hourFileName(Math.floor(Date.now() / HOUR_MS) * HOUR_MS);
  writeFileSync(join(folder, name), '{"schemaVersion":2,"hour":');
  host = await startTestHost({ dataDir });
  const { notices } = await host.client.status();
  expect(notices).toEqual([expect.stringMatching(new RegExp(`^Usage counts file .*${name.replace(".", "\\.")} could not be read \\(not JSON: .*\\) and was moved aside to .*\\.bad-`))]);
  expect(readdirSync(folder).filter((file) => file.startsWith(`${name}.bad-`))).toHaveLength(1);
}, 60_000);
