// SPEC §7 "Connecting": which Redis a host shares providers on, what it is called there, and
// the one-sentence refusals a person can act on.
import { expect, test } from "vitest";
import { HostStartError } from "../../electron/host/host-start-error";
import { defaultHostName, redisOptions } from "../../electron/host/redis-options";

test("without a URL every provider stays local", () => {
  expect(redisOptions({}, {})).toBeUndefined();
  expect(redisOptions({}, { HEADROOM_REDIS_URL: "  " })).toBeUndefined();
});

test("the environment configures it, the default prefix is headroom, and flags win over the environment", () => {
  const env = { HEADROOM_REDIS_URL: "redis://10.0.0.5:6379/0", HEADROOM_REDIS_PREFIX: "team-a", HEADROOM_HOST_NAME: "ci-7" };
  expect(redisOptions({}, env)).toEqual({ url: "redis://10.0.0.5:6379/0", prefix: "team-a", hostName: "ci-7" });
  expect(redisOptions({}, { HEADROOM_REDIS_URL: "rediss://:pw@cache:6380" })).toEqual({ url: "rediss://:pw@cache:6380", prefix: "headroom" });
  expect(redisOptions({ url: "redis://127.0.0.1:7000", prefix: "mine" }, env)).toMatchObject({ url: "redis://127.0.0.1:7000", prefix: "mine" });
});

test("a URL, prefix or host name that cannot work is refused with what to check", () => {
  const refusal = (given: Parameters<typeof redisOptions>[0], env: NodeJS.ProcessEnv) => {
    try {
      redisOptions(given, env);
    } catch (error) {
      expect(error).toBeInstanceOf(HostStartError);
      return (error as Error).message;
    }
    throw new Error("accepted");
  };
  expect(refusal({ url: "http://10.0.0.5:6379" }, {})).toMatch(/must start with redis:\/\/ or rediss:\/\/.*--redis or HEADROOM_REDIS_URL/);
  expect(refusal({ url: "redis://h", prefix: "a b" }, {})).toMatch(/key prefix .*got "a b".*--redis-prefix/);
  // A URL the client cannot parse is named by where it came from, never shown: it may carry a password.
  for (const url of ["redis://u:s3cret@127.0.0.1:notaport", "redis://u:s3cr%ZZet@127.0.0.1:6379"]) {
    const message = refusal({}, { HEADROOM_REDIS_URL: url });
    expect(message).toMatch(/cannot be read.*HEADROOM_REDIS_URL/);
    expect(message).not.toContain("s3cr");
  }
  // A lease id of a shared provider starts with the host's name, so it takes what a lease id may hold.
  expect(refusal({}, { HEADROOM_REDIS_URL: "redis://h", HEADROOM_HOST_NAME: "my laptop" })).toMatch(/HEADROOM_HOST_NAME .*got "my laptop"/);
});

test("the default host name is the OS host name and the API port, kept to what a lease id may hold", () => {
  expect(defaultHostName("devbox", 7411)).toBe("devbox:7411");
  expect(defaultHostName("Ann's MacBook (2)", 7411)).toBe("Ann-s-MacBook--2-:7411");
  expect(defaultHostName("", 1)).toBe("host:1");
});
