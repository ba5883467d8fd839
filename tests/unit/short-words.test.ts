// Labels that fit by design instead of ending in an ellipsis, and durations typed as said.
import { expect, test } from "vitest";
import { parseSpokenDuration } from "../../renderer/duration-words";
import { shortAgentLabel, shortFolder } from "../../renderer/short-words";

test("a long folder keeps its last part whole and shrinks the ones before it to a letter", () => {
  expect(shortFolder("~/src/billing-service/api", 12)).toBe("~/s/b/api");
  expect(shortFolder("/home/ana/.config/tool", 12)).toBe("/h/a/.c/tool");
  expect(shortFolder("~/src/api", 12)).toBe("~/src/api");
});

test("an agent's label shrinks only its folder, only when it is too long", () => {
  expect(shortAgentLabel("claude · ~/src/billing-service/api", 20)).toBe("claude · ~/s/b/api");
  expect(shortAgentLabel("claude · ~/src/billing", 20)).toBe("claude · ~/s/billing");
  expect(shortAgentLabel("migrator · ~/src/db", 20)).toBe("migrator · ~/src/db");
  expect(shortAgentLabel("a-very-long-agent-name-without-folder", 20)).toBe("a-very-long-agent-name-without-folder");
  expect(shortAgentLabel("~/src/billing-service/api", 12)).toBe("~/s/b/api");
});

test("durations are typed as they are read", () => {
  expect(parseSpokenDuration("5 s")).toBe(5_000);
  expect(parseSpokenDuration("2 min 30 s")).toBe(150_000);
  expect(parseSpokenDuration("90s")).toBe(90_000);
  expect(parseSpokenDuration("1 h 5 min")).toBe(3_900_000);
  expect(parseSpokenDuration("350 ms")).toBe(350);
  expect(parseSpokenDuration("30")).toBe(30_000);
  expect(parseSpokenDuration("2 minutes")).toBe(120_000);
  expect(parseSpokenDuration("soon")).toBeUndefined();
  expect(parseSpokenDuration("")).toBeUndefined();
});
