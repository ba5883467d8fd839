// SPEC §3: lease ids are unguessable (at least 122 random bits), because a lease-scoped ride
// trusts whoever knows the id. A counter let a process that knew one id ride the next ones.
import { expect, test } from "vitest";
import { leaseIdSource } from "../../electron/host/lease-ids";

const bitsOf = (id: string): number[] => [...Buffer.from(id, "hex")].flatMap((byte) => [7, 6, 5, 4, 3, 2, 1, 0].map((bit) => (byte >> bit) & 1));

test("a lease id is 128 bits of hex, and none repeats across many batches of randomness", () => {
  const next = leaseIdSource();
  const ids = Array.from({ length: 20_000 }, next);
  expect(ids.filter((id) => !/^[0-9a-f]{32}$/.test(id))).toEqual([]);
  expect(new Set(ids).size).toBe(ids.length);
  // Two sources (two starts of the host) share nothing either.
  const other = new Set(Array.from({ length: 20_000 }, leaseIdSource()));
  expect(ids.filter((id) => other.has(id))).toEqual([]);
});

test("knowing one lease id tells nothing of the next: successive ids differ in about half their bits, and no bit is fixed", () => {
  const next = leaseIdSource();
  const ids = Array.from({ length: 10_000 }, next);
  const bits = ids.map(bitsOf);
  // Successive ids: the XOR's weight is Binomial(128, ½), mean 64, sd 5.7; 20..108 is ±7.8 sd.
  const differing = bits.slice(1).map((id, i) => id.reduce((sum, bit, at) => sum + (bit ^ bits[i]![at]!), 0));
  expect(Math.min(...differing)).toBeGreaterThan(20);
  expect(Math.max(...differing)).toBeLessThan(108);
  // Every one of the 128 positions varies (a prefix, a counter or a version nibble would not):
  // each is set in 40..60 % of 10,000 ids (sd 0.5 %).
  const shares = Array.from({ length: 128 }, (_, at) => bits.reduce((sum, id) => sum + id[at]!, 0) / bits.length);
  expect(Math.min(...shares)).toBeGreaterThan(0.4);
  expect(Math.max(...shares)).toBeLessThan(0.6);
});
