// The packaged app carries only package.json "dependencies" (electron-builder packs those):
// a devDependency that slipped into the main process would work in a checkout and crash the
// installed app at start. So the built main.js may import nothing but runtime dependencies,
// `electron` and `node:*`, and the sandboxed preload nothing but `electron`.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { beforeAll, expect, test } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const OUT = join(ROOT, "dist", "electron");

beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, "scripts", "build-electron.mjs")], { cwd: ROOT, stdio: "pipe" });
}, 60_000);

/** Every module the built file loads at run time (static, dynamic and require), by specifier. */
async function importsOf(file: string, format: "esm" | "cjs"): Promise<string[]> {
  const result = await build({
    entryPoints: [file],
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format,
    logLevel: "silent",
    // Stop at the first bare specifier: we want the names the file asks for, not their code.
    plugins: [
      {
        name: "record-bare",
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
        },
      },
    ],
  });
  const input = result.metafile.inputs[Object.keys(result.metafile.inputs).find((key) => file.endsWith(key))!]!;
  return [...new Set(input.imports.map((entry) => entry.path))].sort();
}

const packageName = (specifier: string) =>
  specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!;

test("dist/electron/main.js imports only runtime dependencies, electron and node:*", async () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  const allowed = new Set([...Object.keys(manifest.dependencies), "electron"]);
  const imports = await importsOf(join(OUT, "main.js"), "esm");
  expect(imports).toContain("electron"); // the check sees the imports at all
  const outside = imports.filter((specifier) => !specifier.startsWith("node:") && !allowed.has(packageName(specifier)));
  expect(outside, `imports that an installed app would not have: ${outside.join(", ")}`).toEqual([]);
});

test("dist/electron/preload.cjs, which the sandbox loads alone, requires nothing but electron", async () => {
  expect(await importsOf(join(OUT, "preload.cjs"), "cjs")).toEqual(["electron"]);
});
