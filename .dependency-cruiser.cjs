// The layers of /work/shared/STYLE.md ("The shape of the house"), checked on every `npm test`
// (`npm run lint:layers`) instead of by memory. Paths are from the repository root.
const TRANSPORTS = ["electron/http", "electron/proxy", "electron/ipc", "cli"];

/** One rule per transport: it may not reach into any other transport. */
const transportRules = TRANSPORTS.map((transport) => ({
  name: `transport-${transport.replace("/", "-")}-alone`,
  comment: `${transport}/ is a transport: a rule two transports need belongs below them (service, shared/), not in another transport.`,
  severity: "error",
  from: { path: `^${transport}/` },
  to: { path: `^(${TRANSPORTS.filter((other) => other !== transport).join("|")})/` },
}));

module.exports = {
  forbidden: [
    {
      name: "engine-imports-only-shared",
      comment: "The engine is pure rules with an injected clock: of our code it may use only shared/.",
      severity: "error",
      from: { path: "^electron/engine/" },
      to: { pathNot: "^(electron/engine|shared)/|node_modules|^node:", dependencyTypesNot: ["core"] },
    },
    {
      name: "engine-no-node-builtins",
      comment: "The engine does no I/O, so it needs no Node module.",
      severity: "error",
      from: { path: "^electron/engine/" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "renderer-not-electron",
      comment: "The window runs in a sandboxed page: it reaches the main process only through the bridge.",
      severity: "error",
      from: { path: "^renderer/" },
      to: { path: "^electron/" },
    },
    ...transportRules,
    {
      name: "electron-only-in-the-shell",
      comment:
        "Only the shell, the IPC adapter and the two entry points run inside Electron; everything else also runs under `npm run serve`, the CLI and the tests, where there is no Electron. (scripts/ launch the binary and tests/ drive the app, so they are not product code.)",
      severity: "error",
      from: { path: "^(electron|renderer|shared|cli|demo|bench|bin)/", pathNot: "^electron/(shell|ipc)/|^electron/(main|preload)\\.ts$" },
      to: { path: "^node_modules/(electron|electron-store)/" },
    },
    {
      name: "cli-is-a-client",
      comment:
        "The `headroom` command talks to the host over HTTP: of our code it uses shared/, the data folder's read side (electron/data-folder) and the agents' configuration edits (electron/connect, SPEC §10: the CLI edits its own user's files), never the host, the service or the engine.",
      severity: "error",
      from: { path: "^cli/" },
      to: { path: "^electron/", pathNot: "^electron/(data-folder|connect)/" },
    },
    {
      name: "connect-stands-alone",
      comment: "electron/connect/ edits agents' files for the host and for the CLI alike: of our code it uses shared/ only.",
      severity: "error",
      from: { path: "^electron/connect/" },
      to: { path: "^(electron|renderer|cli)/", pathNot: "^electron/connect/" },
    },
    {
      name: "data-folder-stands-alone",
      comment: "electron/data-folder/ is where the host's files are, read by the host and by its clients: it imports neither.",
      severity: "error",
      from: { path: "^electron/data-folder/" },
      to: { path: "^(electron|renderer|cli)/", pathNot: "^electron/data-folder/" },
    },
    {
      name: "shared-stands-alone",
      comment: "shared/ is imported by both processes and the CLI; it imports none of them.",
      severity: "error",
      from: { path: "^shared/" },
      to: { path: "^(electron|renderer|cli)/" },
    },
    {
      name: "nothing-imports-tests-or-bench",
      comment:
        "Shipped and development code never depends on the tests or the bench. (The bench reuses tests/support, e.g. the Chromium launcher; tests never import the bench.)",
      severity: "error",
      from: { pathNot: "^(tests|bench)/" },
      to: { path: "^(tests|bench)/" },
    },
    {
      name: "tests-not-bench",
      comment: "Tests must not depend on the bench.",
      severity: "error",
      from: { path: "^tests/" },
      to: { path: "^bench/" },
    },
    {
      name: "no-circular",
      comment:
        "Data flows one way through the rooms; a cycle means two modules that are really one, or a layer upside down. Cycles made only of `import type` are erased by the compiler and allowed.",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "not-to-unresolvable",
      comment: "An import that does not resolve would hide from every rule above.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // node_modules stays in the graph (not followed) so the rule on `electron` can see it.
    exclude: { path: "^(dist|test-results)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
      // ESM-only packages (conf, vite, p-queue) export only an "import" condition.
      conditionNames: ["import", "require", "node", "default"],
      exportsFields: ["exports"],
    },
  },
};
