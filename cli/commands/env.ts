// `headroom env [--provider <id>]` (SPEC §10): export lines for this shell only, nothing written.
import { presetOf, PRESETS } from "../../shared/presets";
import { parseCommandArgs, providerIdArg, takePositionals } from "../args";
import type { Command } from "../command";
import { proxyOf } from "../agent-setup";

/** The variables a preset's agents read, for a provider of that kind. */
const VARIABLES: Record<string, (base: string) => [string, string][]> = {
  anthropic: (base) => [["ANTHROPIC_BASE_URL", base]],
  openai: (base) => [["OPENAI_BASE_URL", `${base}/v1`]],
  gemini: (base) => [["GOOGLE_GEMINI_BASE_URL", base]],
};

/** A custom provider's kind: the preset whose upstream it shares, else Anthropic's and OpenAI's variables. */
function kindsOf(id: string, upstream: string | undefined): string[] {
  if (VARIABLES[id]) return [id];
  const preset = presetOf(id) ?? PRESETS.find((p) => p.upstream === upstream);
  if (preset && VARIABLES[preset.id]) return [preset.id];
  return ["anthropic", "openai"];
}

const quoted = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

export const envCommand: Command = async (argv, context) => {
  const { values, positionals } = parseCommandArgs("env", argv, { provider: { type: "string" } });
  takePositionals("env", positionals, []);
  const { client } = context.connection();
  const proxyUrl = await proxyOf(client);
  const lines: string[] = [];
  if (values.provider !== undefined) {
    const id = providerIdArg(values.provider, "env");
    const config = await client.provider(id); // an unknown provider is 404 naming the known ones
    for (const kind of kindsOf(id, config.upstream)) for (const [name, value] of VARIABLES[kind]!(`${proxyUrl}/${id}`)) lines.push(`export ${name}=${quoted(value)}`);
  } else {
    const existing = new Set((await client.limits()).limits.map((l) => l.providerId));
    for (const id of Object.keys(VARIABLES)) {
      if (existing.has(id)) for (const [name, value] of VARIABLES[id]!(`${proxyUrl}/${id}`)) lines.push(`export ${name}=${quoted(value)}`);
    }
    if (lines.length === 0) process.stderr.write("headroom: no provider named anthropic, openai or gemini; add one (headroom providers add anthropic) or pass --provider <id>.\n");
  }
  process.stdout.write(lines.map((line) => `${line}\n`).join(""));
  return 0;
};
