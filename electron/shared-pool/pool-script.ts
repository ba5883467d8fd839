// The one Lua script that changes a shared provider's state in Redis (SPEC §7), put together
// from its fragments in the order their locals need: the prelude (arguments, keys, state read
// once), a used-up window's state, slots and queue (with the usage gate), the 429 rules and
// the window's, host liveness, then each
// operation; the one named runs and the reply ends the script. Its protocol, host side, is
// pool-protocol.ts.
import { GATE_OPS_LUA } from "./gate-script";
import { HOSTS_LUA } from "./lua/hosts";
import { JOIN_OPS_LUA } from "./lua/join-ops";
import { LEASE_OPS_LUA } from "./lua/lease-ops";
import { PRELUDE_LUA } from "./lua/prelude";
import { RATE_LIMITS_LUA } from "./lua/rate-limits";
import { REPLY_LUA } from "./lua/reply";
import { SETTINGS_OPS_LUA } from "./lua/settings-ops";
import { SLOTS_LUA } from "./lua/slots";
import { WINDOW_OPS_LUA, WINDOW_STATE_LUA } from "./lua/window-state";

export const POOL_SCRIPT: string = [
  PRELUDE_LUA,
  WINDOW_STATE_LUA,
  SLOTS_LUA,
  RATE_LIMITS_LUA,
  WINDOW_OPS_LUA,
  HOSTS_LUA,
  // TTL leases that ran out go before the operation is judged.
  "expireLeases()",
  JOIN_OPS_LUA,
  LEASE_OPS_LUA,
  SETTINGS_OPS_LUA,
  GATE_OPS_LUA,
  "local result = ops[op]()",
  REPLY_LUA,
].join("\n");
