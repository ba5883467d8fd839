// SPEC §8: each agent's resume form, built from the original arguments of `headroom run --resume`.
import { describe, expect, test } from "vitest";
import { resumePlan } from "../../cli/run/resume-forms";

describe("resume forms", () => {
  test("claude -p gets a session id of ours and resumes it; a given --session-id is kept", () => {
    const plan = resumePlan(["claude", "-p", "fix it", "--model", "sonnet"], undefined);
    const [, flag, id] = plan.first;
    expect(flag).toBe("--session-id");
    expect(plan.next("")).toEqual(["claude", "--resume", id, "-p", "fix it", "--model", "sonnet"]);
    const given = resumePlan(["claude", "-p", "--session-id", "abc-123", "go"], undefined);
    expect(given.first).toEqual(["claude", "-p", "--session-id", "abc-123", "go"]);
    expect(given.next("")).toEqual(["claude", "--resume", "abc-123", "-p", "go"]);
  });

  test("interactive claude, or one that already continues a session, runs again as is", () => {
    expect(resumePlan(["claude"], undefined).next("")).toEqual(["claude"]);
    expect(resumePlan(["claude", "-p", "--continue", "go"], undefined).next("")).toEqual(["claude", "-p", "--continue", "go"]);
  });

  test("codex exec resumes the session its output named, else --last; the prompt stays last", () => {
    const plan = resumePlan(["codex", "exec", "-m", "gpt-5", "add tests"], undefined);
    expect(plan.first).toEqual(["codex", "exec", "-m", "gpt-5", "add tests"]);
    expect(plan.next("workdir: /x\nsession id: 0199a213-81c0-7800-8aa1-bbab2a035a53\n")).toEqual([
      "codex", "exec", "-m", "gpt-5", "resume", "0199a213-81c0-7800-8aa1-bbab2a035a53", "add tests",
    ]);
    expect(plan.next("")).toEqual(["codex", "exec", "-m", "gpt-5", "resume", "--last", "add tests"]);
  });

  test("--resume-command replaces every resume; anything else runs again unchanged", () => {
    expect(resumePlan(["aider", "--yes"], "aider --yes --restore-chat-history").next("")).toEqual(["sh", "-c", "aider --yes --restore-chat-history"]);
    expect(resumePlan(["./agent.sh", "x"], undefined).next("")).toEqual(["./agent.sh", "x"]);
  });
});
