// The one Lua script that changes a shared provider's state in Redis (SPEC §7). Every
// operation runs atomically inside it, judged at the time the host passes in (ARGV[4]),
// so §1's rules read exactly as in the local pool (electron/engine/provider-pool.ts) and a
// test drives both with one fake clock. The backoff constants come from the engine's own
// module, so there is one place to change them.
//
// Keys live under `<prefix>:<providerId>:` (computed in the script: a single Redis node or
// primary, never Redis Cluster, SPEC §7):
//   cfg        hash  limit, cooldownMs, autoReduced (0/1), autoReducedFrom
//   state      hash  pausedUntil, c429 (consecutive 429s), gen (reductions so far), seq (arrivals),
//                    pauseReason (set by an early pause, cleared by a 429: absent means a 429's),
//                    changedAt (the last message on 'changed')
//   held       hash  leaseId -> "gen|admittedAt|host"   (gen: reductions before its admission;
//                    -1: adopted once reduced, so it speaks of an older limit)
//   agents     hash  leaseId or waiterId -> agentId      (only those that named one)
//   queue      zset  waiterId scored by arrival seq     (FIFO by arrival at Redis)
//   waiters    hash  waiterId -> "enqueuedAt|deadline|ttl|host" (deadline, ttl -1: none)
//   expiries   zset  TTL leaseId scored by when it expires unless heartbeated
//   ttls       hash  TTL leaseId -> its ttl in ms (a heartbeat pushes its expiry to now + ttl)
//   recycling  zset  leaseId scored by the time its cooldown ends
//   inbox:<h>  list  answers for host h: "a|id|admittedAt|enqueuedAt|expiresAt" (-1: no TTL),
//                    "t|id" (timed out), "x|id" (its TTL lease expired) or "g|askId" (poll your usage gate)
//   hosts      zset  host scored by when it was last seen (every operation and a 2 s heartbeat)
//   done:<req> string a release's answer, kept 10 min so a resent release answers the same
// Channel `changed` carries the name of a host whose operation changed what the status shows.
// state.upSince is when this provider's state was (re)created, or when hosts were heard again
// after an outage (state.heardAt: the latest drive): a host is judged dead when
// now − max(last seen, upSince) > HOST_EXPIRY_MS, so a Redis that lost its data waits for
// hosts to come back before freeing anything of theirs.
// Waiter and lease ids are `<host>.<n>`: namespaced by host, and a lease keeps its waiter's id.
import { FIRST_BACKOFF_MS, MAX_BACKOFF_MS, MAX_RETRY_AFTER_MS } from "../engine/backoff";
import { CHANGE_GAP_MS } from "./change-feed";
import { GATE_LUA, GATE_OPERATIONS, GATE_OPS_LUA } from "./gate-script";
import { EXTRA_OPERATIONS, EXTRAS_LUA } from "./pool-script-extras";

/** A host silent this long loses its leases (released as failures) and its waiters (SPEC §7). */
export const HOST_EXPIRY_MS = 10_000;
/** How long a release's answer is kept for a resend of the same request (SPEC §7: nothing acknowledged twice). */
export const RELEASE_MEMORY_MS = 600_000;
/** No drive from any host for this long (two heartbeats) means Redis was unreachable. */
const SILENCE_MS = 4_000;
/** How often a host says it is alive. */
export const HOST_REFRESH_MS = 2_000;

/** What each operation's reply carries in its first element (see `SharedPool`). */
export const OPERATIONS = [
  "seed",
  "acquire",
  "leave",
  "release",
  "undelivered",
  "setLimit",
  "setCooldown",
  "resume",
  "drive",
  "depart",
  "status",
  "heartbeat",
  "rejoin",
  ...EXTRA_OPERATIONS,
  ...GATE_OPERATIONS,
] as const;
export type Operation = (typeof OPERATIONS)[number];

const LUA = String.raw`
-- nowArg is handed to Redis as given: formatting a Lua number costs more than the command.
local op, P, host, nowArg = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local now = tonumber(nowArg)
-- Fencing (SPEC §7 "Redis down or restarted"): a host names the epoch it joined. An epoch that
-- is missing or another means Redis lost the state this host knows of: nothing is changed
-- until the host has re-registered what it holds ('rejoin') and sent the operation again.
local epoch = redis.call('GET', P..':epoch')
if op ~= 'seed' and op ~= 'rejoin' and epoch ~= ARGV[5] then return {{-2}, {}, {}, 0} end
local CFG, STATE, HELD = P..':cfg', P..':state', P..':held'
local QUEUE, WAITERS, RECYCLING = P..':queue', P..':waiters', P..':recycling'
local HOSTS, EXPIRIES, TTLS, AGENTS = P..':hosts', P..':expiries', P..':ttls', P..':agents'
local FIRST_BACKOFF, MAX_BACKOFF, MAX_RETRY_AFTER = ${FIRST_BACKOFF_MS}, ${MAX_BACKOFF_MS}, ${MAX_RETRY_AFTER_MS}
local HOST_EXPIRY = ${HOST_EXPIRY_MS}
local SILENCE = ${SILENCE_MS}
local RELEASE_MEMORY = ${RELEASE_MEMORY_MS}
local CHANGE_GAP = ${CHANGE_GAP_MS}

-- Read once; every change below writes through to Redis and to these locals.
local cfg = redis.call('HMGET', CFG, 'limit', 'cooldownMs', 'autoReduced', 'autoReducedFrom', 'version')
local limit, cooldown = tonumber(cfg[1]) or 1, tonumber(cfg[2]) or 0
local autoReduced, autoReducedFrom = tonumber(cfg[3]) or 0, tonumber(cfg[4]) or -1
local st = redis.call('HMGET', STATE, 'pausedUntil', 'gen', 'upSince', 'c429', 'holdUntil', 'pauseReason', 'changedAt')
local pauseEnd, gen, upSince, c429 = tonumber(st[1]), tonumber(st[2]) or 0, tonumber(st[3]), tonumber(st[4]) or 0
local pauseReason = st[6]
-- Whether this operation changed what a status shows: other hosts hear of it on 'changed'.
local changed = false
-- After Redis lost its data, new admissions wait until hosts have had 10 s to re-register.
local holdUntil = tonumber(st[5])
if holdUntil and now >= holdUntil then holdUntil = nil end
-- A recycling slot is free from the instant its cooldown ends.
local recycling, held = redis.call('ZCARD', RECYCLING), redis.call('HLEN', HELD)
if recycling > 0 then
  redis.call('ZREMRANGEBYSCORE', RECYCLING, '-inf', nowArg)
  recycling = redis.call('ZCARD', RECYCLING)
end
-- Only TTL leases pay for expiries: a provider without any skips them after this ZCARD.
local expiring = redis.call('ZCARD', EXPIRIES)

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

-- The pause, only while it lasts: at its end instant admission is open again.
local function pausedUntil()
  if pauseEnd and now < pauseEnd then return pauseEnd end
  return nil
end
local function hasFree() return held + recycling < limit and not pausedUntil() and not holdUntil end
-- Every settings change carries a version, so a Redis that lost them is re-seeded with the newest.
local function changedSettings() redis.call('HINCRBY', CFG, 'version', 1) end
local function recycle(id)
  changed = true
  if cooldown > 0 then
    redis.call('ZADD', RECYCLING, now + cooldown, id)
    recycling = recycling + 1
  end
end

local function admit(id, enqueuedAt, h, ttl)
  redis.call('HSET', HELD, id, string.format('%d|%d|%s', gen, now, h))
  held = held + 1
  changed = true
  local expiresAt = -1
  if ttl >= 0 then
    expiresAt = now + ttl
    redis.call('ZADD', EXPIRIES, expiresAt, id)
    redis.call('HSET', TTLS, id, ttl)
    expiring = expiring + 1
  end
  tell(h, string.format('a|%s|%d|%d|%d', id, now, enqueuedAt, expiresAt))
end
-- A lease this host holds but Redis did not know of (re-registered or adopted): held at
-- once, over the limit if it must be, with its own expiry and ttl.
local function register(id, leaseGen, admittedAt, expiresAt, ttl, agent)
  redis.call('HSET', HELD, id, leaseGen..'|'..admittedAt..'|'..host)
  held = held + 1
  changed = true
  if agent ~= '' then redis.call('HSET', AGENTS, id, agent) end
  if tonumber(ttl) >= 0 then
    redis.call('ZADD', EXPIRIES, expiresAt, id)
    redis.call('HSET', TTLS, id, ttl)
    expiring = expiring + 1
  end
end
-- A lease stops being held: its expiry, if it had one, goes with it.
local function unhold(id)
  redis.call('HDEL', HELD, id)
  redis.call('HDEL', AGENTS, id)
  held = held - 1
  changed = true
  if expiring > 0 and redis.call('ZREM', EXPIRIES, id) == 1 then
    redis.call('HDEL', TTLS, id)
    expiring = expiring - 1
  end
end
local function unqueue(id)
  local rec = redis.call('HGET', WAITERS, id)
  if not rec then return nil end
  redis.call('HDEL', WAITERS, id)
  redis.call('ZREM', QUEUE, id)
  changed = true
  local enq, deadline, ttl, h = string.match(rec, '^(%-?%d+)|(%-?%d+)|(%-?%d+)|(.*)$')
  return tonumber(enq), tonumber(deadline), h, tonumber(ttl)
end

-- A waiter answered without admission: its agent goes with it.
local function timedOut(h, id)
  redis.call('HDEL', AGENTS, id)
  tell(h, 't|'..id)
end

${GATE_LUA}
-- Admits queued waiters, oldest first, while slots, the pause and the usage gate allow. A head
-- whose deadline passed (its host is late to say so) is answered with a timeout instead.
local function drive()
  while hasFree() do
    local head = redis.call('ZRANGE', QUEUE, 0, 0)[1]
    if not head or not gatePasses(head) then return end
    local enq, deadline, h, ttl = unqueue(head)
    if deadline >= 0 and deadline <= now then timedOut(h, head) else admit(head, enq, h, ttl) end
  end
end

-- A waiter that cannot outwait the pause is answered now (SPEC §1).
local function timeOutBefore(untilAt)
  for _, id in ipairs(redis.call('ZRANGE', QUEUE, 0, -1)) do
    local rec = redis.call('HGET', WAITERS, id)
    local deadline = tonumber(string.match(rec, '^%-?%d+|(%-?%d+)|'))
    if deadline >= 0 and deadline < untilAt then
      local _, _, h = unqueue(id)
      timedOut(h, id)
    end
  end
end

local function pauseAfter429(consecutive, retryAfter)
  if retryAfter then return math.min(math.max(0, retryAfter), MAX_RETRY_AFTER) end
  local doublings = math.min(math.max(0, consecutive - 1), 30)
  return math.min(FIRST_BACKOFF * 2 ^ doublings, MAX_BACKOFF)
end

-- Returns whether the pause was extended, its end, and whether the limit was lowered.
local function rateLimited(leaseGen, retryAfter)
  local current = pausedUntil()
  -- A pause the provider's headers asked for came before any 429: this 429 opens the window.
  local wasPaused = current and not pauseReason
  if pauseReason then
    redis.call('HDEL', STATE, 'pauseReason')
    pauseReason = nil
  end
  changed = true
  c429 = c429 + 1
  redis.call('HSET', STATE, 'c429', c429)
  local untilAt = now + pauseAfter429(c429, retryAfter)
  local extended = 0
  if untilAt > now and (not current or untilAt > current) then
    redis.call('HSET', STATE, 'pausedUntil', untilAt)
    pauseEnd = untilAt
    extended = 1
    timeOutBefore(untilAt)
  end
  -- One pause window lowers the limit once; a late 429 from a lease admitted before the
  -- last reduction speaks of the old limit; at limit 1 a 429 only pauses.
  if wasPaused or leaseGen ~= gen or limit <= 1 then return extended, untilAt, 0 end
  if autoReduced == 0 then
    autoReducedFrom = limit
    redis.call('HSET', CFG, 'autoReducedFrom', limit)
  end
  limit, autoReduced, gen = limit - 1, 1, gen + 1
  redis.call('HSET', CFG, 'limit', limit, 'autoReduced', 1)
  changedSettings()
  redis.call('HSET', STATE, 'gen', gen)
  return extended, untilAt, 1
end

-- Hosts that are gone (silent too long, or departed) free their slots: their leases are
-- released as failures (recycling as usual) and their waiters leave the queue.
local function forgetHosts(hosts)
  local gone = {}
  changed = true
  for _, h in ipairs(hosts) do
    gone[h] = true
    redis.call('ZREM', HOSTS, h)
    redis.call('DEL', P..':inbox:'..h)
  end
  gateForget(hosts)
  local leases = redis.call('HGETALL', HELD)
  for i = 1, #leases, 2 do
    if gone[string.match(leases[i + 1], '^%-?%d+|%-?%d+|(.*)$')] then
      unhold(leases[i])
      recycle(leases[i])
    end
  end
  local waiters = redis.call('HGETALL', WAITERS)
  for i = 1, #waiters, 2 do
    if gone[string.match(waiters[i + 1], '^%-?%d+|%-?%d+|%-?%d+|(.*)$')] then
      unqueue(waiters[i])
      redis.call('HDEL', AGENTS, waiters[i])
    end
  end
  drive()
end

local function expireHosts()
  -- Every live host drives every 2 s and none drives while it cannot reach Redis: a longer
  -- silence from all of them was an outage, which every host sat out. Its time is not held
  -- against a host still reconnecting; judging starts afresh, as after a Redis that lost its data.
  local heardAt = tonumber(redis.call('HGET', STATE, 'heardAt'))
  if not heardAt or now > heardAt then redis.call('HSET', STATE, 'heardAt', nowArg) end
  if not upSince or (heardAt and now - heardAt > SILENCE) then
    upSince = now
    redis.call('HSET', STATE, 'upSince', nowArg)
    return
  end
  local cutoff = now - HOST_EXPIRY
  if upSince >= cutoff then return end
  local dead = redis.call('ZRANGEBYSCORE', HOSTS, '-inf', '('..cutoff)
  if #dead > 0 then forgetHosts(dead) end
end

-- When the longest-silent other host would expire: a host with waiters wakes then.
local function nextExpiry()
  local oldest = redis.call('ZRANGE', HOSTS, 0, 1, 'WITHSCORES')
  for i = 1, #oldest, 2 do
    if oldest[i] ~= host then return math.max(tonumber(oldest[i + 1]), upSince or now) + HOST_EXPIRY + 1 end
  end
  return -1
end

-- A host says it is alive, and looks for hosts that are not, on 'drive': its 2 s heartbeat,
-- its wake-ups and its fallback poll. Admission and release stay lean (two round trips).
local sweeping = op == 'drive' or op == 'seed'
if sweeping then
  redis.call('ZADD', HOSTS, nowArg, host)
  expireHosts()
end

-- A TTL lease not heartbeated in time is released as a failure at its expiry instant, before
-- this operation is judged, as the local pool's expiry timer would have done; its host is told.
if expiring > 0 then
  local expired = redis.call('ZRANGEBYSCORE', EXPIRIES, '-inf', nowArg)
  for _, id in ipairs(expired) do
    local rec = redis.call('HGET', HELD, id)
    unhold(id)
    recycle(id)
    tell(string.match(rec, '^%-?%d+|%-?%d+|(.*)$'), 'x|'..id)
  end
  if #expired > 0 then drive() end
end
${EXTRAS_LUA}
${GATE_OPS_LUA}
local result
if op == 'seed' then
  -- If Redis already holds the provider, its settings win (SPEC §7).
  if not epoch then
    epoch = ARGV[5]
    redis.call('SET', P..':epoch', epoch)
    redis.call('HSET', STATE, 'epochAt', nowArg)
  end
  changed = true -- one more live host, if nothing else
  if redis.call('EXISTS', CFG) == 0 then
    redis.call('HSET', CFG, 'limit', ARGV[6], 'cooldownMs', ARGV[7], 'autoReduced', ARGV[8], 'version', 0)
    if tonumber(ARGV[9]) >= 0 then redis.call('HSET', CFG, 'autoReducedFrom', ARGV[9]) end
    result = {1, epoch}
  else
    result = {0, epoch}
  end
  -- A host starting has no waiters yet: those Redis queues for it are a previous run's, and so
  -- are admissions left in its inbox, which no one will take (their slots return at once). Its
  -- previous run's leases stay held for it to adopt.
  local waiters = redis.call('HGETALL', WAITERS)
  for i = 1, #waiters, 2 do
    if string.match(waiters[i + 1], '^%-?%d+|%-?%d+|%-?%d+|(.*)$') == host then
      unqueue(waiters[i])
      redis.call('HDEL', AGENTS, waiters[i])
    end
  end
  for _, entry in ipairs(redis.call('LRANGE', P..':inbox:'..host, 0, -1)) do
    local id = string.match(entry, '^a|(.*)|%-?%d+|%-?%d+|%-?%d+$')
    if id and redis.call('HEXISTS', HELD, id) == 1 then unhold(id) end
  end
  redis.call('DEL', P..':inbox:'..host)
  gateForget({host})
  drive()
elseif op == 'rejoin' then
  -- Redis lost the state this host joined (ARGV[5]); ARGV[6] is a new epoch, ARGV[7..11] the
  -- newest settings this host saw with their version, ARGV[12..] its leases, five arguments
  -- each: id, admittedAt, expiresAt, ttl, agentId ('' none). The first host back opens a 10 s window in which new
  -- admissions wait; a lease re-registered after it is still taken (and may exceed the limit).
  if epoch == ARGV[5] then
    result = {0, epoch, 0}
  else
    if not epoch then
      epoch = ARGV[6]
      redis.call('SET', P..':epoch', epoch)
      redis.call('HSET', STATE, 'epochAt', nowArg)
    end
    local holdEnd = (tonumber(redis.call('HGET', STATE, 'epochAt')) or now) + HOST_EXPIRY
    if now < holdEnd then
      holdUntil = holdEnd
      redis.call('HSET', STATE, 'holdUntil', holdEnd)
    end
    if tonumber(ARGV[7]) > (tonumber(cfg[5]) or -1) then
      limit, cooldown, autoReduced, autoReducedFrom = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11])
      redis.call('HSET', CFG, 'limit', limit, 'cooldownMs', cooldown, 'autoReduced', autoReduced, 'version', ARGV[7])
      if autoReducedFrom >= 0 then redis.call('HSET', CFG, 'autoReducedFrom', autoReducedFrom) else redis.call('HDEL', CFG, 'autoReducedFrom') end
    end
    redis.call('ZADD', HOSTS, nowArg, host)
    local late = 0
    for i = 12, #ARGV, 5 do
      if redis.call('HEXISTS', HELD, ARGV[i]) == 0 then
        register(ARGV[i], gen, ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4])
        if now >= holdEnd then late = late + 1 end
      end
    end
    changed = true
    result = {1, epoch, late}
  end
elseif op == 'acquire' then
  local id, deadline, zero, ttl, agent = ARGV[6], tonumber(ARGV[7]), ARGV[8] == '1', tonumber(ARGV[9]), ARGV[10]
  local pu = pausedUntil()
  -- The client resends a command whose reply a dropped connection lost: the second one finds
  -- the waiter already held (its admission is told again) or queued, and changes nothing.
  local already = redis.call('HGET', HELD, id)
  if already then
    local admittedAt = string.match(already, '^%-?%d+|(%-?%d+)|')
    local expiresAt = redis.call('ZSCORE', EXPIRIES, id) or '-1'
    tell(host, 'a|'..id..'|'..admittedAt..'|'..admittedAt..'|'..expiresAt)
  elseif redis.call('HEXISTS', WAITERS, id) == 1 then
    -- still queued: nothing to do
  elseif hasFree() and redis.call('ZCARD', QUEUE) == 0 then
    if agent and agent ~= '' then redis.call('HSET', AGENTS, id, agent) end
    admit(id, now, host, ttl)
  elseif zero or (deadline >= 0 and pu and deadline < pu) then
    tell(host, 't|'..id)
  else
    local seq = redis.call('HINCRBY', STATE, 'seq', 1)
    redis.call('ZADD', QUEUE, seq, id)
    redis.call('HSET', WAITERS, id, string.format('%d|%d|%d|%s', now, deadline, ttl, host))
    if agent and agent ~= '' then redis.call('HSET', AGENTS, id, agent) end
    changed = true
  end
  result = {1}
elseif op == 'leave' then
  result = {unqueue(ARGV[6]) and 1 or 0}
  if result[1] == 1 then redis.call('HDEL', AGENTS, ARGV[6]) end
elseif op == 'release' or op == 'undelivered' then
  -- Each release carries a request id: the client resends a command whose reply a dropped
  -- connection lost, and the resend must get the first answer, not "not held".
  local request = P..':done:'..(op == 'release' and ARGV[9] or ARGV[7])
  local rec = redis.call('HGET', HELD, ARGV[6])
  if not rec then
    result = {0}
    local done = redis.call('GET', request)
    if done then
      result = {}
      for n in string.gmatch(done, '[^|]+') do result[#result + 1] = tonumber(n) end
    end
  else
    unhold(ARGV[6])
    local extended, untilAt, reduced = 0, 0, 0
    if op == 'release' then
      local outcome = ARGV[7]
      if outcome == 'success' then
        if c429 ~= 0 then redis.call('HSET', STATE, 'c429', 0) end
      elseif outcome == 'rate_limited' then
        extended, untilAt, reduced = rateLimited(tonumber(string.match(rec, '^(%-?%d+)|')), tonumber(ARGV[8]))
      end
      recycle(ARGV[6])
    end
    drive()
    result = {1, extended, untilAt, reduced, limit}
    redis.call('SET', request, table.concat(result, '|'), 'PX', RELEASE_MEMORY)
  end
elseif op == 'setLimit' then
  limit, autoReduced, autoReducedFrom = tonumber(ARGV[6]), 0, -1
  redis.call('HSET', CFG, 'limit', limit, 'autoReduced', 0)
  redis.call('HDEL', CFG, 'autoReducedFrom')
  changedSettings()
  changed = true
  drive()
  result = {1}
elseif op == 'setCooldown' then
  redis.call('HSET', CFG, 'cooldownMs', ARGV[6])
  changedSettings()
  changed = true
  result = {1}
elseif op == 'resume' then
  local wasPaused = pausedUntil() and 1 or 0
  redis.call('HDEL', STATE, 'pausedUntil')
  pauseEnd = nil
  changed = changed or wasPaused == 1
  drive()
  result = {wasPaused}
elseif op == 'drive' then
  drive()
  -- ARGV[6..]: the waiters this host still waits for. One admitted by a reply that a killed
  -- Redis or a dropped connection lost (a drive's inbox, a release admitting this host's
  -- waiter) is told again, or it would wait forever while its slot stays held.
  if #ARGV >= 6 then
    local ids = {unpack(ARGV, 6)}
    local recs = redis.call('HMGET', HELD, unpack(ids))
    for i, rec in ipairs(recs) do
      if rec then
        local admittedAt = string.match(rec, '^%-?%d+|(%-?%d+)|')
        local expiresAt = redis.call('ZSCORE', EXPIRIES, ids[i]) or '-1'
        tell(host, 'a|'..ids[i]..'|'..admittedAt..'|'..admittedAt..'|'..expiresAt)
      end
    end
  end
  result = {1}
elseif op == 'depart' then
  -- A host leaving the provider hands back what it holds, as a host that died would.
  forgetHosts({host})
  result = {1}
elseif op == 'heartbeat' then
  -- A held TTL lease runs for its ttl from now; a lease without one is only confirmed held.
  local ttl = redis.call('HEXISTS', HELD, ARGV[6]) == 1 and (redis.call('HGET', TTLS, ARGV[6]) or -1)
  if not ttl then
    result = {0}
  elseif ttl == -1 then
    result = {1, -1}
  else
    redis.call('ZADD', EXPIRIES, now + tonumber(ttl), ARGV[6])
    result = {1, now + tonumber(ttl)}
  end
elseif op == 'status' then
  result = {
    limit, held, redis.call('ZCARD', QUEUE), pausedUntil() or -1, cooldown, autoReduced, autoReducedFrom,
    recycling, redis.call('ZCOUNT', HOSTS, now - HOST_EXPIRY, '+inf'), tonumber(cfg[5]) or 0,
    pauseReason or '',
  }
elseif extras[op] then
  result = extras[op]()
elseif gateOps[op] then
  result = gateOps[op]()
else
  return redis.error_reply('unknown shared pool operation '..tostring(op))
end

-- Other hosts with new answers are woken. A wake-up ('drive') or a waiter giving up
-- ('leave') also collects what other hosts left for this one, oldest first.
for h in pairs(told) do redis.call('PUBLISH', P..':wake:'..h, '1') end
-- Every host hears of a change at once, at most one message per CHANGE_GAP: a host looks again
-- a while after each message (change-feed.ts), which covers changes the gap kept quiet. A host
-- alone on the provider pays nothing for it.
if changed and now >= (tonumber(st[7]) or 0) + CHANGE_GAP and redis.call('ZCARD', HOSTS) > 1 then
  redis.call('HSET', STATE, 'changedAt', nowArg)
  redis.call('PUBLISH', P..':changed', host)
end
local answers = mine
if op == 'drive' or op == 'leave' then
  answers = redis.call('LRANGE', P..':inbox:'..host, 0, -1)
  if #answers > 0 then redis.call('DEL', P..':inbox:'..host) end
  for _, entry in ipairs(mine) do answers[#answers + 1] = entry end
end
local times = {}
if recycling > 0 then
  local wakeAt = redis.call('ZRANGEBYSCORE', RECYCLING, '('..now, '+inf', 'WITHSCORES')
  for i = 2, #wakeAt, 2 do times[#times + 1] = tonumber(wakeAt[i]) end
end
if pausedUntil() then times[#times + 1] = pauseEnd end
if holdUntil then times[#times + 1] = holdUntil end
gateTimes(times)
if expiring > 0 then times[#times + 1] = tonumber(redis.call('ZRANGE', EXPIRIES, 0, 0, 'WITHSCORES')[2]) end
return {result, answers, times, (sweeping or op == 'acquire') and nextExpiry() or 0}
`;

export const POOL_SCRIPT: string = LUA;
