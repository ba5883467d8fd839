// `npm run serve` and `npm run demo` serve the built window: build it first when it is missing,
// so a fresh clone shows a window instead of a 404. Later starts skip the build.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
if (!existsSync(join(root, "dist", "renderer", "index.html"))) {
  process.stderr.write("Building the window once (dist/renderer)…\n");
  const result = spawnSync(process.platform === "win32" ? "npx.cmd" : "npx", ["vite", "build", "--logLevel", "warn"], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
