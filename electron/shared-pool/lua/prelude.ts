// The pool script's prelude (SPEC §7): what its arguments are called, where its keys live,
// the fence of the epoch, and the state every operation reads once. Every operation runs
// atomically in the script, judged at the time the host passes in (`now`), so §1's rules
// read as in the local pool (electron/engine/provider-pool.ts) and a test drives both with
// one fake clock. ARGV is named here from pool-protocol.ts's table, once.
//
// Keys live under `<prefix>:<providerId>:` (computed in the script: a single Redis node or
// primary, never Redis Cluster, SPEC §7):
//   cfg        hash  limit, cooldownMs, autoReduced (0/1), autoReducedFrom, version
//   state      hash  pausedUntil, c429 (consecutive 429s), gen (reductions so far), seq (arrivals),
//                    pauseReason (set by an early pause, cleared by a 429: absent means a 429's),
//                    changedAt (the last message on 'changed'), upSince, heardAt, holdUntil, epochAt
//   held       hash  leaseId -> "gen|admittedAt|host"   (gen: reductions before its admission;
//                    -1: adopted once reduced, so it speaks of an older limit)
//   agents     hash  leaseId or waiterId -> agentId      (only those that named one)
//   queue      zset  waiterId scored by arrival seq     (FIFO by arrival at Redis)
//   waiters    hash  waiterId -> "enqueuedAt|deadline|ttl|host" (deadline, ttl -1: none)
//   expiries   zset  TTL leaseId scored by when it expires unless heartbeated
//   ttls       hash  TTL leaseId -> its ttl in ms (a heartbeat pushes its expiry to now + ttl)
//   recycling  zset  leaseId scored by the time its cooldown ends
//   inbox:<h>  list  answers for host h (inbox.ts): "a|id|admittedAt|enqueuedAt|expiresAt" (-1: no
//                    TTL), "t|id" (timed out), "x|id" (its TTL lease expired), "g|askId" (poll your gate)
//   hosts      zset  host scored by when it was last seen (every operation and a 2 s heartbeat)
//   done:<req> string a release's answer (JSON), kept 10 min so a resent release answers the same
//   epoch      string the state hosts joined (fencing, below)
// Channel `changed` carries the name of a host whose operation changed what the status shows.
// Waiter and lease ids are `<host>.<n>`: namespaced by host, and a lease keeps its waiter's id.
import { LIMITS } from "../../../shared/limits";
import { COMMON_ARGS, OPERATION_ARGS } from "../pool-protocol";

const luaList = (names: readonly string[]): string => `{${names.map((name) => `'${name}'`).join(", ")}}`;
const NAMES_LUA = `{${Object.entries(OPERATION_ARGS)
  .map(([op, names]) => `${op} = ${luaList(names)}`)
  .join(", ")}}`;

export const PRELUDE_LUA = String.raw`
-- COMMON_ARGS: the operation, the key prefix, the host asking, its time, the epoch it joined.
local op, P, host, nowArg, epochArg = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
-- nowArg is handed to Redis as given: formatting a Lua number costs more than the command.
local now = tonumber(nowArg)
-- The operation's own arguments by name; settings (seed, rejoin) follow as cfg field/value pairs.
local NAMES = ${NAMES_LUA}
local names = NAMES[op]
if not names then return redis.error_reply('unknown shared pool operation '..tostring(op)) end
local arg, settings = {}, {}
for i, name in ipairs(names) do arg[name] = ARGV[${COMMON_ARGS.length} + i] end
for i = ${COMMON_ARGS.length + 1} + #names, #ARGV, 2 do settings[ARGV[i]] = ARGV[i + 1] end

-- Fencing (SPEC §7 "Redis down or restarted"): a host names the epoch it joined. An epoch that
-- is missing or another means Redis lost the state this host knows of: nothing is changed
-- until the host has re-registered what it holds ('rejoin') and sent the operation again.
local epoch = redis.call('GET', P..':epoch')
if op ~= 'seed' and op ~= 'rejoin' and epoch ~= epochArg then return cjson.encode({staleEpoch = true}) end
local CFG, STATE, HELD = P..':cfg', P..':state', P..':held'
local QUEUE, WAITERS, RECYCLING = P..':queue', P..':waiters', P..':recycling'
local HOSTS, EXPIRIES, TTLS, AGENTS = P..':hosts', P..':expiries', P..':ttls', P..':agents'

-- Read once; every change below writes through to Redis and to these locals. A provider not
-- seeded yet (a Redis that lost it, before a host re-seeds) runs on the defaults.
local cfg = redis.call('HMGET', CFG, 'limit', 'cooldownMs', 'autoReduced', 'autoReducedFrom', 'version')
local limit, cooldown = tonumber(cfg[1]) or ${LIMITS.limit.min}, tonumber(cfg[2]) or ${LIMITS.cooldownMs.default}
local autoReduced, autoReducedFrom = tonumber(cfg[3]) or 0, tonumber(cfg[4])
local settingsVersion = tonumber(cfg[5]) or -1
local st = redis.call('HMGET', STATE, 'pausedUntil', 'gen', 'upSince', 'c429', 'holdUntil', 'pauseReason', 'changedAt')
local pauseEnd, gen, upSince, c429 = tonumber(st[1]), tonumber(st[2]) or 0, tonumber(st[3]), tonumber(st[4]) or 0
local pauseReason, lastChangedAt = st[6], tonumber(st[7]) or 0
-- Whether this operation changed what a status shows: other hosts hear of it on 'changed'.
local changed = false
-- After Redis lost its data, new admissions wait until hosts have had 10 s to re-register.
local holdUntil = tonumber(st[5])
if holdUntil and now >= holdUntil then holdUntil = nil end

-- Answers for this host go back in the reply; other hosts find theirs in their inbox.
local mine, told = {}, {}
local function tell(h, entry)
  if h == host then
    mine[#mine + 1] = entry
  else
    redis.call('RPUSH', P..':inbox:'..h, entry)
    told[h] = true
  end
end
-- Each operation, by name (the fragments after this define them); each returns its answer.
local ops = {}
`;
