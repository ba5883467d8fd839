#!/usr/bin/env node
// The `headroom` command: runs the TypeScript sources through tsx, so it works straight from
// a checkout (`npx headroom …`) without a build step.
import { register } from "tsx/esm/api";

register();
await import("../cli/main.ts");
