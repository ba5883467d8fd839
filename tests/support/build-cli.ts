// vitest globalSetup: the CLI tests run the bundle users run (bin/headroom.js →
// dist/cli/headroom.js), rebuilt from the current sources first so a stale bundle from an
// earlier install can never stand in for the code under test. esbuild takes well under a second.
import { buildCli } from "../../scripts/build-cli.mjs";

export default async function setup(): Promise<void> {
  await buildCli();
}
