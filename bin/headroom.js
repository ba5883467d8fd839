#!/usr/bin/env node
// The `headroom` command: runs the TypeScript sources through tsx, so it works straight from
// a checkout (`npx headroom …`) without a build step.
import { register } from "tsx/esm/api";

// TypeBox is ~270 small ESM files: loaded before tsx hooks in, Node reads them natively (~0.2 s)
// instead of each passing through tsx's loader thread (~1 s); later imports find them cached.
await import("@sinclair/typebox");
await import("@sinclair/typebox/value");
register();
await import("../cli/main.ts");
