// What to call a process: its command, or for an interpreter the script it runs (SPEC §9:
// `node …/@google/gemini-cli/dist/index.js` is the agent `gemini-cli`, not `node`).
const INTERPRETERS = new Set(["node", "nodejs", "bun", "deno", "python", "python3", "ruby", "perl", "sh", "bash"]);
const INLINE_CODE = new Set(["-e", "--eval", "-p", "--print", "-c"]);
const TAKES_VALUE = new Set(["-r", "--require", "--import", "--loader", "-m"]);
const GENERIC_SCRIPTS = new Set(["index", "cli", "main", "bin", "dist", "build", "lib", "src", "run", "entry", "node_modules"]);

/** A node or python process is named for its script (`…/@google/gemini-cli/dist/index.js` → `gemini-cli`). */
export function commandName(comm: string, argv: string[]): string {
  if (!INTERPRETERS.has(comm) && !/^python3?\.\d+$/.test(comm)) return comm;
  let script: string | undefined;
  for (let i = 1; i < argv.length && script === undefined; i++) {
    const arg = argv[i]!;
    if (INLINE_CODE.has(arg)) return comm; // `node -e "…"`: no script to be named for
    if (TAKES_VALUE.has(arg)) i++;
    else if (!arg.startsWith("-")) script = arg;
  }
  if (script === undefined || /\s/.test(script)) return comm;
  const parts = script.split(/[\\/]/).filter((part) => part !== "");
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!.replace(/\.(c|m)?(js|ts)$|\.py$/, "");
    if (part !== "" && !GENERIC_SCRIPTS.has(part) && !part.startsWith("@")) return part;
  }
  return comm;
}
