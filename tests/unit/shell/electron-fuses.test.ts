// The Electron checklist (issue 17): the packaged app flips its fuses. No Electron binary here,
// so this reads the packaging config electron-builder 26 applies them from.
import fs from "node:fs";
import { expect, test } from "vitest";

/** The `electronFuses:` block of electron-builder.yml as key → value (two-space indented scalars). */
function fusesBlock(): Record<string, string> {
  const lines = fs.readFileSync("electron-builder.yml", "utf8").split("\n");
  const start = lines.indexOf("electronFuses:");
  expect(start, "electron-builder.yml has an electronFuses block").toBeGreaterThanOrEqual(0);
  const fuses: Record<string, string> = {};
  for (const line of lines.slice(start + 1)) {
    const match = /^ {2}(\w+): (\S+)$/.exec(line);
    if (!match) break;
    fuses[match[1]!] = match[2]!;
  }
  return fuses;
}

test("packaging turns RunAsNode, NODE_OPTIONS and inspect arguments off, asar-only loading and asar integrity on", () => {
  expect(fusesBlock()).toEqual({
    runAsNode: "false",
    enableNodeOptionsEnvironmentVariable: "false",
    enableNodeCliInspectArguments: "false",
    onlyLoadAppFromAsar: "true",
    enableEmbeddedAsarIntegrityValidation: "true",
  });
});
