import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Conf from "conf";
import { afterEach, describe, expect, test } from "vitest";
import { migrateSettings } from "../../electron/settings/migrate";
import { CURRENT_SCHEMA_VERSION, checkSettings, defaultSettings } from "../../electron/settings/settings-schema";
import {
  openSettings,
  type BackendFactory,
  type SettingsStore,
} from "../../electron/settings/settings-store";

const open: SettingsStore[] = [];
const made: string[] = [];
function fresh(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "headroom-settings-"));
  made.push(dir);
  return dir;
}
function openIn(dir: string, backend?: BackendFactory): SettingsStore {
  const store = openSettings(backend ? { dir, backend } : { dir });
  open.push(store);
  return store;
}
const settingsFile = (dir: string) => path.join(dir, "settings.json");
const writeRaw = (dir: string, text: string) => fs.writeFileSync(settingsFile(dir), text);
const asideFiles = (dir: string, label = "corrupt") =>
  fs.readdirSync(dir).filter((name) => name.startsWith(`settings.${label}-`));

const anthropic = { limit: 4, cooldownMs: 350, autoReduced: false, noticeDismissed: false };

afterEach(() => {
  for (const store of open.splice(0)) store.close();
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("opening", () => {
  test("a missing file gives the defaults, no notice, and writes nothing yet", () => {
    const dir = fresh();
    const store = openIn(dir);
    expect(store.read()).toEqual(defaultSettings());
    expect(store.read()).toEqual({
      schemaVersion: CURRENT_SCHEMA_VERSION,
      providers: {},
      routes: { threshold: 1, cooldownMs: 15_000 },
    });
    expect(store.notices()).toEqual([]);
    expect(store.path).toBe(settingsFile(dir));
    expect(fs.existsSync(settingsFile(dir))).toBe(false);
  });

  test("a missing data folder is created, readable by its owner only", () => {
    const dir = path.join(fresh(), "nested", "Headroom");
    const store = openIn(dir);
    store.update((d) => void (d.providers.anthropic = { ...anthropic }));
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  test("settings survive a reopen", () => {
    const dir = fresh();
    const first = openIn(dir);
    first.update((d) => {
      d.providers["openrouter.ai"] = {
        limit: 3,
        cooldownMs: 0,
        autoReduced: true,
        autoReducedFrom: 5,
        noticeDismissed: true,
        upstream: "https://openrouter.ai/api",
        usageGate: { url: "http://127.0.0.1:9000/usage", pollMs: 1000, headers: { "x-key": "k" } },
      };
      d.routes = { threshold: 3, cooldownMs: 0 };
    });
    first.close();
    const second = openIn(dir);
    expect(second.read()).toEqual(first.read());
    expect(second.notices()).toEqual([]);
  });

  test("the file is written with mode 0600, and a looser file is tightened on the next write", () => {
    const dir = fresh();
    writeRaw(dir, JSON.stringify({ schemaVersion: 1, providers: {} }));
    fs.chmodSync(settingsFile(dir), 0o644);
    const store = openIn(dir);
    store.update((d) => void (d.providers.anthropic = { ...anthropic }));
    expect(fs.statSync(settingsFile(dir)).mode & 0o777).toBe(0o600);
  });

  test("unknown keys are ignored: the valid data is kept and nothing is reported", () => {
    const dir = fresh();
    writeRaw(
      dir,
      JSON.stringify({
        schemaVersion: 1,
        theme: "dark",
        providers: { anthropic: { ...anthropic, colour: "blue" } },
        routes: { threshold: 2, cooldownMs: 100, extra: true },
        leases: [],
      }),
    );
    const store = openIn(dir);
    expect(store.notices()).toEqual([]);
    expect(store.read().providers).toEqual({ anthropic });
    expect(store.read().routes).toEqual({ threshold: 2, cooldownMs: 100 });
    expect(asideFiles(dir)).toEqual([]);
  });

  test("temp files left by a write that was killed are removed at start; the settings and other files stay", () => {
    const dir = fresh();
    writeRaw(dir, JSON.stringify({ schemaVersion: CURRENT_SCHEMA_VERSION, providers: { anthropic } }));
    // conf writes through `<file>.tmp-<10 timestamp digits><6 hex>` and renames it into place.
    const leftovers = ["settings.json.tmp-1764500000a1b2c3", "settings.json.tmp-1764500001ffffff"];
    for (const name of leftovers) fs.writeFileSync(path.join(dir, name), '{"schemaVersion":1,"provi');
    fs.writeFileSync(path.join(dir, "notes.json.tmp-1764500000a1b2c3"), "not ours");

    const store = openIn(dir);
    expect(store.read().providers.anthropic).toEqual(anthropic);
    expect(fs.readdirSync(dir).sort()).toEqual(["notes.json.tmp-1764500000a1b2c3", "settings.json"]);
  });

  test("a hand-written provider with only a limit gets the default cooldown", () => {
    const dir = fresh();
    writeRaw(dir, JSON.stringify({ schemaVersion: 1, providers: { local: { limit: 2 } } }));
    const store = openIn(dir);
    expect(store.read().providers.local).toEqual({ limit: 2, cooldownMs: 350, autoReduced: false, noticeDismissed: false });
  });
});

describe("a file that cannot be trusted is moved aside and defaults are used", () => {
  test("truncated JSON: moved aside with its bytes intact, a notice, defaults", () => {
    const dir = fresh();
    const original = '{"schemaVersion":1,"providers":{"anthropic":{"limit":4';
    writeRaw(dir, original);
    const store = openIn(dir);

    expect(store.read()).toEqual(defaultSettings());
    const [aside, ...more] = asideFiles(dir);
    expect(more).toEqual([]);
    expect(aside).toMatch(/^settings\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.json$/);
    expect(fs.readFileSync(path.join(dir, aside!), "utf8")).toBe(original);
    expect(store.notices()).toHaveLength(1);
    expect(store.notices()[0]).toMatch(/^Settings file was corrupt \(.+\) and was moved aside to .+; defaults are in use\.$/);
    expect(store.notices()[0]).toContain(path.join(dir, aside!));

    store.update((d) => void (d.providers.anthropic = { ...anthropic }));
    expect(JSON.parse(fs.readFileSync(settingsFile(dir), "utf8")).providers.anthropic).toEqual(anthropic);
  });

  test.each([
    ["a limit given as a string", { limit: "4" }, 'providers.anthropic.limit must be an integer from 1 to 10000 (got "4")'],
    ["a fractional limit", { limit: 1.5 }, "providers.anthropic.limit must be an integer from 1 to 10000 (got 1.5)"],
    ["a negative cooldown", { limit: 4, cooldownMs: -1 }, "providers.anthropic.cooldownMs must be an integer from 0 to 600000 (got -1)"],
    ["a non-boolean flag", { limit: 4, autoReduced: "yes" }, "providers.anthropic.autoReduced must be true or false"],
    ["an upstream that is not http(s)", { limit: 4, upstream: "ftp://x" }, "providers.anthropic.upstream must be an http:// or https:// URL"],
    ["a usage gate polled too often", { limit: 4, usageGate: { url: "http://x/u", pollMs: 10 } }, "usageGate.pollMs must be an integer from 250"],
  ])("%s", (_name, provider, problem) => {
    const dir = fresh();
    writeRaw(dir, JSON.stringify({ schemaVersion: 1, providers: { anthropic: provider } }));
    const store = openIn(dir);
    expect(store.read()).toEqual(defaultSettings());
    expect(asideFiles(dir)).toHaveLength(1);
    expect(store.notices()[0]).toContain(problem);
  });

  test("a malformed provider id, bad routes or a bad lease", () => {
    for (const body of [
      { providers: { Anthropic: { limit: 1 } } },
      { routes: { threshold: 0 } },
      { routes: { cooldownMs: 3_600_001 } },
      { leases: [{ leaseId: "l1", providerId: "a", admittedAt: "now" }] },
    ]) {
      const dir = fresh();
      writeRaw(dir, JSON.stringify({ schemaVersion: 1, ...body }));
      const store = openIn(dir);
      expect(asideFiles(dir), JSON.stringify(body)).toHaveLength(1);
      expect(store.read()).toEqual(defaultSettings());
    }
  });

  test("a file from a newer Headroom is moved aside, never overwritten", () => {
    const dir = fresh();
    const original = JSON.stringify({ schemaVersion: CURRENT_SCHEMA_VERSION + 1, providers: { a: { limit: 2 } } });
    writeRaw(dir, original);
    const store = openIn(dir);
    expect(store.read()).toEqual(defaultSettings());
    expect(store.notices()[0]).toMatch(/^Settings file is from a newer Headroom \(schemaVersion 2 .*\) and was moved aside/);
    store.update((d) => void (d.routes.threshold = 2));
    expect(fs.readFileSync(path.join(dir, asideFiles(dir)[0]!), "utf8")).toBe(original);
  });

  test("the moved-aside copy is owner-only (0600), whatever mode the file had", () => {
    const dir = fresh();
    writeRaw(dir, "{not json");
    fs.chmodSync(settingsFile(dir), 0o644);
    openIn(dir);
    expect(fs.statSync(path.join(dir, asideFiles(dir)[0]!)).mode & 0o777).toBe(0o600);
  });

  test("a file that is not a JSON object", () => {
    const dir = fresh();
    writeRaw(dir, "[1,2]");
    const store = openIn(dir);
    expect(store.notices()[0]).toContain("does not hold a JSON object");
  });
});

describe("migration", () => {
  test("a pre-release file (no schemaVersion) is migrated and its original kept beside it", () => {
    const dir = fresh();
    const original = JSON.stringify({ providers: { anthropic: { limit: 4 }, openai: { ...anthropic, limit: 2 } } });
    writeRaw(dir, original);
    const store = openIn(dir);
    expect(store.notices()).toEqual([]);
    expect(store.read()).toEqual({
      schemaVersion: 1,
      providers: { anthropic, openai: { ...anthropic, limit: 2 } },
      routes: { threshold: 1, cooldownMs: 15_000 },
    });
    expect(JSON.parse(fs.readFileSync(settingsFile(dir), "utf8"))).toEqual(store.read());
    const [backup] = asideFiles(dir, "v0");
    expect(fs.readFileSync(path.join(dir, backup!), "utf8")).toBe(original);
  });

  test("if the backend cannot open, Headroom runs from memory and the old file is put back", () => {
    const dir = fresh();
    const original = JSON.stringify({ providers: { anthropic: { limit: 4 } } });
    writeRaw(dir, original);
    const store = openIn(dir, () => {
      throw new Error("EACCES: permission denied");
    });
    expect(store.read().providers.anthropic).toEqual(anthropic);
    expect(store.notices()).toEqual([expect.stringContaining("cannot be saved") as string]);
    expect(fs.readFileSync(settingsFile(dir), "utf8")).toBe(original);
    expect(asideFiles(dir, "v0")).toEqual([]);
  });

  test("there is a step for every version below the current one", () => {
    const result = migrateSettings({});
    expect(result.ok && checkSettings(result.data)).toEqual({ ok: true, data: defaultSettings(), legacyLeases: [] });
  });
});

describe("writing", () => {
  function countingConf(): { factory: BackendFactory; writes: () => number } {
    let writes = 0;
    const factory: BackendFactory = (options) => {
      const conf = new Conf(options);
      return {
        path: conf.path,
        get store() {
          return conf.store;
        },
        set store(value) {
          writes++;
          conf.store = value;
        },
      };
    };
    return { factory, writes: () => writes };
  }
  const onDisk = (dir: string) => JSON.parse(fs.readFileSync(settingsFile(dir), "utf8"));

  test("every update is written at once; after close, changes stay in memory only", () => {
    const dir = fresh();
    const { factory, writes } = countingConf();
    const store = openIn(dir, factory);
    store.update((d) => void (d.routes.threshold = 7));
    expect(writes()).toBe(1);
    expect(onDisk(dir).routes.threshold).toBe(7);
    store.close();
    store.update((d) => void (d.routes.threshold = 9)); // a late lease event during shutdown
    expect(store.read().routes.threshold).toBe(9);
    expect(writes()).toBe(1);
    expect(onDisk(dir).routes.threshold).toBe(7);
  });

  test("an invalid change throws and leaves memory and file as they were", () => {
    const dir = fresh();
    const store = openIn(dir);
    store.update((d) => void (d.providers.anthropic = { ...anthropic }));
    expect(() => store.update((d) => void (d.providers.anthropic!.limit = 0))).toThrow(
      "providers.anthropic.limit must be an integer from 1 to 10000 (got 0)",
    );
    expect(store.read().providers.anthropic).toEqual(anthropic);
    expect(onDisk(dir).providers.anthropic).toEqual(anthropic);
  });

  test("read() hands out a frozen copy, so nobody edits settings behind update()", () => {
    const store = openIn(fresh());
    expect(() => {
      store.read().routes.threshold = 9;
    }).toThrow(TypeError);
  });

  test("a failed write is reported in the notices, not thrown", () => {
    const dir = fresh();
    const failing: BackendFactory = (options) => ({
      path: path.join(options.cwd, `${options.configName}.json`),
      get store() {
        return defaultSettings();
      },
      set store(_value) {
        throw new Error("ENOSPC: no space left on device");
      },
    });
    const store = openIn(dir, failing);
    store.update((d) => void (d.routes.threshold = 2));
    expect(store.read().routes.threshold).toBe(2);
    expect(store.notices()).toEqual([expect.stringContaining("could not be saved") as string]);
    expect(store.notices()[0]).toContain("ENOSPC");
  });
});
