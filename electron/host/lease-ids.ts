import { randomBytes } from "node:crypto";

/**
 * Lease ids: a random prefix per host start and a counter. Unique across restarts (held leases
 * are restored by id) and several times cheaper than a UUID per admission, which the engine
 * bench showed costing as much as the rest of an acquire + release. Ids are not secrets: every
 * call that takes one needs the API token anyway.
 */
export function leaseIdSource(): () => string {
  const prefix = randomBytes(6).toString("base64url");
  let next = 0;
  return () => `${prefix}-${(next++).toString(36)}`;
}
