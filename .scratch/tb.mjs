import { register } from "tsx/esm/api";
register();
const t = performance.now();
await import("@sinclair/typebox");
await import("@sinclair/typebox/value");
console.log("typebox via tsx", Math.round(performance.now() - t), "ms");
