// Removing only Headroom's own part of a file that something else changed since `connect`.
import { parse } from "jsonc-parser";
import type { Owned } from "./connect-types";
import { removeEnv } from "./env-edit";
import { removeJson, setJson, valueAt } from "./json-edit";
import { removeTomlKeyAndTable } from "./toml-edit";

export function removeOwned(text: string, owned: Owned): string {
  switch (owned.kind) {
    case "json": {
      let out = text;
      for (const path of owned.paths) {
        // A key the user had before connect (their status line) goes back to their value.
        const previous = owned.restore?.find((entry) => entry.path.join("\0") === path.join("\0"));
        if (previous) out = setJson(out, path, previous.value);
        else if (valueAt(parse(out), path) !== undefined) out = removeJson(out, path, 0);
      }
      return out;
    }
    case "env":
      return owned.names.reduce((out, name) => removeEnv(out, name), text);
    case "codex-toml":
      return removeTomlKeyAndTable(text, "model_provider", `"headroom"`, "model_providers.headroom");
  }
}
