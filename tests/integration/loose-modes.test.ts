// SPEC §5: a data folder or token file other users can write is reported at start-up, in the log
// and as a status notice, with the chmod that fixes it.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { removeDir, startTestHost, tempDir } from "../support/test-host";

test("a 0777 data folder and a 0666 token file are reported with the chmod that fixes each", async () => {
  const dataDir = tempDir();
  const tokenFile = path.join(dataDir, "api-token");
  fs.writeFileSync(tokenFile, "a-token-someone-else-could-swap\n");
  fs.chmodSync(tokenFile, 0o666);
  fs.chmodSync(dataDir, 0o777);
  const logged: string[] = [];
  const t = await startTestHost({ dataDir, log: (message) => logged.push(message) });
  try {
    const folder = `The data folder ${dataDir} can be written by other users (mode 777); run: chmod 700 '${dataDir}'`;
    const token = `The token file ${tokenFile} can be written by other users (mode 666); run: chmod 600 '${tokenFile}'`;
    expect((await t.client.status()).notices).toEqual(expect.arrayContaining([folder, token]));
    expect(logged).toEqual(expect.arrayContaining([folder, token]));
  } finally {
    await t.stop();
    removeDir(dataDir);
  }
});

test("an owner-only data folder gives no such notice", async () => {
  const t = await startTestHost();
  try {
    expect((await t.client.status()).notices ?? []).toEqual([]);
  } finally {
    await t.stop();
    removeDir(t.dataDir);
  }
});
