// What the status says of plan windows beyond their meters (SPEC §8): each window's length,
// the kind of pause, and warnings given once per threshold and reset period however a
// meter swings inside one (an attack swung one between 79 % and 81 % for 50 warnings).
import { describe, expect, test } from "vitest";
import type { WindowReading, WindowSighting } from "../../electron/engine/window-readings";
import { poolHarness } from "../support/pool-harness";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const sighting = (name: string, usedPercent: number, resetsAt: number | undefined, seenAt: number, more: Partial<WindowSighting> = {}): WindowSighting => ({
  name,
  usedPercent,
  ...(resetsAt === undefined ? {} : { resetsAt }),
  seenAt,
  scoped: false,
  ...more,
});
const reading = (...windows: WindowSighting[]): WindowReading => ({ windows });

describe("window lengths", () => {
  test("known names and Codex's minutes give each window its length; an unknown one has none", () => {
    const { pool, clock } = poolHarness();
    const now = clock.now();
    pool.windows.note(reading(sighting("5h", 10, now + HOUR, now), sighting("7d", 20, now + 24 * HOUR, now), sighting("7d_opus", 5, undefined, now, { scoped: true })));
    pool.windows.note(reading(sighting("primary", 30, now + HOUR, now, { minutes: 300 }), sighting("secondary", 40, undefined, now), sighting("day", 50, undefined, now)));
    const lengths = Object.fromEntries((pool.status().windows ?? []).map((w) => [w.name, w.lengthMs]));
    expect(lengths).toEqual({ "5h": 18_000_000, "7d": 604_800_000, "7d_opus": 604_800_000, primary: 18_000_000, secondary: undefined, day: 86_400_000 });
    expect(pool.status().windows?.find((w) => w.name === "secondary")).not.toHaveProperty("lengthMs");
  });

  test("a later reading without the minutes keeps the length an earlier one told", () => {
    const { pool, clock } = poolHarness();
    pool.windows.note(reading(sighting("secondary", 40, undefined, clock.now(), { minutes: 10_080 })));
    clock.advance(MINUTE);
    pool.windows.note(reading(sighting("secondary", 41, undefined, clock.now())));
    expect(pool.status().windows).toMatchObject([{ name: "secondary", usedPercent: 41, lengthMs: 604_800_000 }]);
  });
});

describe("pause kinds", () => {
  test("a used-up window pauses with pauseKind window until it resets; a 429's pause has none", () => {
    const { pool, clock } = poolHarness();
    const resetsAt = clock.now() + HOUR;
    pool.windows.note({ windows: [sighting("5h", 100, resetsAt, clock.now())], usedUp: { name: "5h", resetsAt } });
    expect(pool.status()).toMatchObject({ paused: true, pausedUntil: resetsAt, pauseKind: "window" });
    clock.advance(HOUR);
    expect(pool.status()).not.toHaveProperty("pauseKind");
    expect(pool.status().paused).toBe(false);
  });

  test("under a 429 pause that outlasts the window's, the reason is the 429's and the kind still window", async () => {
    const { pool, clock } = poolHarness({ limit: 1 });
    const acquired = await pool.acquire();
    if (!acquired.ok) throw new Error("not admitted");
    pool.release(acquired.lease.leaseId, "rate_limited", 90_000);
    expect(pool.status()).toMatchObject({ paused: true });
    expect(pool.status()).not.toHaveProperty("pauseKind");
    const resetsAt = clock.now() + 30_000;
    pool.windows.note({ windows: [sighting("5h", 100, resetsAt, clock.now())], usedUp: { name: "5h", resetsAt } });
    const entry = pool.status();
    expect(entry.pausedUntil).toBeGreaterThan(resetsAt);
    expect(entry.pauseReason).not.toContain("window");
    expect(entry.pauseKind).toBe("window");
  });
});

describe("one warning per threshold and reset period", () => {
  const warnings = (events: { kind: string; message: string }[]) => events.filter((e) => e.kind === "window_warning");

  test("a meter swinging between 79 % and 81 % 50 times in one period warns once", () => {
    const { pool, clock, events } = poolHarness();
    const resetsAt = clock.now() + 4 * HOUR;
    for (let i = 0; i < 50; i++) {
      pool.windows.note(reading(sighting("5h", i % 2 === 0 ? 79 : 81, resetsAt, clock.now())));
      clock.advance(MINUTE);
    }
    expect(warnings(events)).toHaveLength(1);
  });

  test("a reset that jitters by minutes from reading to reading is the same period; at 95 % it warns once more", () => {
    const { pool, clock, events } = poolHarness();
    const resetsAt = clock.now() + 4 * HOUR;
    const jitter = [0, 4, -3, 2, -4, 1];
    for (let i = 0; i < 60; i++) {
      pool.windows.note(reading(sighting("primary", i % 2 === 0 ? 78 : 82, resetsAt + jitter[i % jitter.length]! * MINUTE, clock.now())));
      clock.advance(30_000);
    }
    for (const used of [96, 90, 97]) pool.windows.note(reading(sighting("primary", used, resetsAt - 2 * MINUTE, clock.now())));
    expect(warnings(events).map((e) => e.message.match(/at (\d+) %/)?.[1])).toEqual(["82", "96"]);
  });

  test("the next period warns again, and so does a window whose readings carry no reset once it starts near 0 %", () => {
    const { pool, clock, events } = poolHarness();
    let resetsAt = clock.now() + HOUR;
    pool.windows.note(reading(sighting("5h", 85, resetsAt, clock.now())));
    clock.advance(HOUR + MINUTE);
    resetsAt = clock.now() + 5 * HOUR;
    for (const used of [5, 81, 79, 81]) pool.windows.note(reading(sighting("5h", used, resetsAt, clock.now())));
    expect(warnings(events)).toHaveLength(2);

    for (const used of [81, 79, 81, 79, 81]) pool.windows.note(reading(sighting("secondary", used, undefined, clock.now())));
    expect(warnings(events)).toHaveLength(3);
    pool.windows.note(reading(sighting("secondary", 2, undefined, clock.now())));
    pool.windows.note(reading(sighting("secondary", 83, undefined, clock.now())));
    expect(warnings(events)).toHaveLength(4);
  });
});

describe("window names", () => {
  test("answers full of other names never push out the account's windows; the others keep the room left, newest first", () => {
    const { pool, clock } = poolHarness();
    pool.windows.note(reading(sighting("5h", 97, clock.now() + HOUR, clock.now()), sighting("7d", 40, clock.now() + 24 * HOUR, clock.now())));
    for (let i = 0; i < 4_000; i++) {
      clock.advance(1);
      pool.windows.note(reading(sighting(`junk${i}_a`, 50, undefined, clock.now(), { scoped: true }), sighting(`junk${i}_b`, 50, undefined, clock.now(), { scoped: true })));
    }
    const names = (pool.status().windows ?? []).map((w) => w.name);
    expect(names).toHaveLength(8);
    expect(names).toEqual(expect.arrayContaining(["5h", "7d", "junk3999_a", "junk3999_b"]));
    pool.windows.setHoldNewAtPercent(90);
    void pool.acquire({ agentId: "new" });
    expect(pool.status().waitReason).toBe("holding new agents: 5-hour window at 97 %");
  });
});
