// SPEC §8 "Who stopped": the window_reset line names the agents a used-up window refused and
// says which go on by themselves under `headroom run --resume`.
import { expect, test } from "vitest";
import { StoppedAgents } from "../../electron/service/stopped-agents";

const reset = { kind: "window_reset" as const, providerId: "anthropic", message: "anthropic's 5-hour window reset; agents are admitted again" };

test("the reset names who stopped, newest first, and how many go on by themselves; then forgets them", () => {
  const stopped = new StoppedAgents();
  stopped.told({ kind: "window_exhausted", providerId: "anthropic", message: "used up" });
  stopped.note("anthropic", "codex · ~/src/web", "codex");
  stopped.note("anthropic", "claude · ~/src/api", "claude");
  stopped.note("anthropic", "claude · ~/src/cli");
  stopped.resuming("anthropic", "claude");
  stopped.resuming("anthropic", "codex");
  expect(stopped.labels("anthropic")).toEqual(["claude · ~/src/cli", "claude · ~/src/api", "codex · ~/src/web"]);
  expect(stopped.told(reset).message).toBe(
    "anthropic's 5-hour window reset; agents are admitted again. Stopped on it: claude · ~/src/cli, claude · ~/src/api, codex · ~/src/web (2 run with --resume and go on by themselves)",
  );
  expect(stopped.labels("anthropic")).toBeUndefined();
  expect(stopped.told(reset).message).toBe(reset.message); // nobody stopped: the line as it was
});

test("at most 20, and one agent stopped twice is listed once", () => {
  const stopped = new StoppedAgents();
  for (let i = 0; i < 25; i++) stopped.note("anthropic", `agent ${i}`);
  stopped.note("anthropic", "agent 24");
  expect(stopped.labels("anthropic")).toHaveLength(20);
  expect(stopped.labels("anthropic")?.[0]).toBe("agent 24");
});
