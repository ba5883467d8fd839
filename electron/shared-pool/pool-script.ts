// The one Lua script that changes a shared provider's state in Redis (SPEC §7). Every
// operation runs atomically inside it, judged at the time the host passes in (ARGV[4]),
// so §1's rules read exactly as in the local pool (electron/engine/provider-pool.ts) and a
// test drives both with one fake clock. The backoff constants come from the engine's own
// module, so there is one place to change them.
//
// Keys live under `<prefix>:<providerId>:` (computed in the script: a single Redis node or
// primary, never Redis Cluster, SPEC §7):
//   cfg        hash  limit, cooldownMs, autoReduced (0/1), autoReducedFrom
//   state      hash  pausedUntil, c429 (consecutive 429s), gen (reductions so far), seq (arrivals)
//   held       hash  leaseId -> "gen|admittedAt|host"   (gen: reductions before its admission)
//   queue      zset  waiterId scored by arrival seq     (FIFO by arrival at Redis)
//   waiters    hash  waiterId -> "enqueuedAt|deadline|host" (deadline -1: none)
//   recycling  zset  leaseId scored by the time its cooldown ends
//   inbox:<h>  list  answers for host h's waiters: "a|id|admittedAt|enqueuedAt" or "t|id"
//   hosts      zset  host scored by when it was last seen (every operation and a 2 s heartbeat)
// state.upSince is when this provider's state was (re)created: a host is judged dead when
// now − max(last seen, upSince) > HOST_EXPIRY_MS, so a Redis that lost its data waits for
// hosts to come back before freeing anything of theirs.
// Waiter and lease ids are `<host>#<n>`: namespaced by host, and a lease keeps its waiter's id.
import { FIRST_BACKOFF_MS, MAX_BACKOFF_MS, MAX_RETRY_AFTER_MS } from "../engine/backoff";

/** A host silent this long loses its leases (released as failures) and its waiters (SPEC §7). */
export const HOST_EXPIRY_MS = 10_000;
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
] as const;
export type Operation = (typeof OPERATIONS)[number];

const LUA = String.raw`
local op, P, host, now = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local CFG, STATE, HELD = P..':cfg', P..':state', P..':held'
local QUEUE, WAITERS, RECYCLING = P..':queue', P..':waiters', P..':recycling'
local HOSTS = P..':hosts'
local FIRST_BACKOFF, MAX_BACKOFF, MAX_RETRY_AFTER = ${FIRST_BACKOFF_MS}, ${MAX_BACKOFF_MS}, ${MAX_RETRY_AFTER_MS}
local HOST_EXPIRY = ${HOST_EXPIRY_MS}

local told = {}
local function num(key, field, default)
  local v = redis.call('HGET', key, field)
  if v then return tonumber(v) end
  return default
end
local function tell(h, entry)
  redis.call('RPUSH', P..':inbox:'..h, entry)
  told[h] = true
end

-- The pause, only while it lasts: at its end instant admission is open again.
local function pausedUntil()
  local u = num(STATE, 'pausedUntil', nil)
  if u and now < u then return u end
  return nil
end
-- A recycling slot is free from the instant its cooldown ends.
local function recyclingCount()
  redis.call('ZREMRANGEBYSCORE', RECYCLING, '-inf', now)
  return redis.call('ZCARD', RECYCLING)
end
local function used() return redis.call('HLEN', HELD) + recyclingCount() end
local function hasFree() return used() < num(CFG, 'limit', 1) and not pausedUntil() end

local function admit(id, enqueuedAt, h)
  redis.call('HSET', HELD, id, string.format('%d|%d|%s', num(STATE, 'gen', 0), now, h))
  tell(h, string.format('a|%s|%d|%d', id, now, enqueuedAt))
end
local function unqueue(id)
  local rec = redis.call('HGET', WAITERS, id)
  if not rec then return nil end
  redis.call('HDEL', WAITERS, id)
  redis.call('ZREM', QUEUE, id)
  local enq, deadline, h = string.match(rec, '^(%-?%d+)|(%-?%d+)|(.*)$')
  return tonumber(enq), tonumber(deadline), h
end

-- Admits queued waiters, oldest first, while slots and the pause allow. A head whose
-- deadline passed (its host is late to say so) is answered with a timeout instead.
local function drive()
  if pausedUntil() then return end
  local free = num(CFG, 'limit', 1) - used()
  while free > 0 do
    local head = redis.call('ZRANGE', QUEUE, 0, 0)[1]
    if not head then return end
    local enq, deadline, h = unqueue(head)
    if deadline >= 0 and deadline <= now then
      tell(h, 't|'..head)
    else
      admit(head, enq, h)
      free = free - 1
    end
  end
end

-- A waiter that cannot outwait the pause is answered now (SPEC §1).
local function timeOutBefore(untilAt)
  for _, id in ipairs(redis.call('ZRANGE', QUEUE, 0, -1)) do
    local rec = redis.call('HGET', WAITERS, id)
    local deadline = tonumber(string.match(rec, '^%-?%d+|(%-?%d+)|'))
    if deadline >= 0 and deadline < untilAt then
      local _, _, h = unqueue(id)
      tell(h, 't|'..id)
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
  local wasPaused = pausedUntil() ~= nil
  local consecutive = redis.call('HINCRBY', STATE, 'c429', 1)
  local untilAt = now + pauseAfter429(consecutive, retryAfter)
  local current = pausedUntil()
  local extended = 0
  if untilAt > now and (not current or untilAt > current) then
    redis.call('HSET', STATE, 'pausedUntil', untilAt)
    extended = 1
    timeOutBefore(untilAt)
  end
  -- One pause window lowers the limit once; a late 429 from a lease admitted before the
  -- last reduction speaks of the old limit; at limit 1 a 429 only pauses.
  local limit = num(CFG, 'limit', 1)
  if wasPaused or leaseGen ~= num(STATE, 'gen', 0) or limit <= 1 then return extended, untilAt, 0 end
  if num(CFG, 'autoReduced', 0) == 0 then redis.call('HSET', CFG, 'autoReducedFrom', limit) end
  redis.call('HSET', CFG, 'limit', limit - 1, 'autoReduced', 1)
  redis.call('HINCRBY', STATE, 'gen', 1)
  return extended, untilAt, 1
end

local function status()
  local recycling = recyclingCount()
  return {
    num(CFG, 'limit', 1), redis.call('HLEN', HELD), redis.call('ZCARD', QUEUE), pausedUntil() or -1,
    num(CFG, 'cooldownMs', 0), num(CFG, 'autoReduced', 0), num(CFG, 'autoReducedFrom', -1), recycling,
    redis.call('ZCOUNT', HOSTS, now - HOST_EXPIRY, '+inf'),
  }
end

-- A host silent too long frees its slots: its leases are released as failures (recycling
-- as usual) and its waiters leave the queue. Returns whether anything was freed.
local function expireHosts()
  local upSince = num(STATE, 'upSince', nil)
  if not upSince then
    redis.call('HSET', STATE, 'upSince', now)
    return false
  end
  local cutoff = now - HOST_EXPIRY
  if upSince >= cutoff then return false end
  local dead = redis.call('ZRANGEBYSCORE', HOSTS, '-inf', '('..cutoff)
  if #dead == 0 then return false end
  local gone = {}
  for _, h in ipairs(dead) do
    gone[h] = true
    redis.call('ZREM', HOSTS, h)
    redis.call('DEL', P..':inbox:'..h)
  end
  local cooldown = num(CFG, 'cooldownMs', 0)
  local held = redis.call('HGETALL', HELD)
  for i = 1, #held, 2 do
    if gone[string.match(held[i + 1], '^%d+|%-?%d+|(.*)$')] then
      redis.call('HDEL', HELD, held[i])
      if cooldown > 0 then redis.call('ZADD', RECYCLING, now + cooldown, held[i]) end
    end
  end
  local waiters = redis.call('HGETALL', WAITERS)
  for i = 1, #waiters, 2 do
    if gone[string.match(waiters[i + 1], '^%-?%d+|%-?%d+|(.*)$')] then unqueue(waiters[i]) end
  end
  return true
end

-- When the longest-silent other host would expire: a host with waiters wakes then.
local function nextExpiry()
  local oldest = redis.call('ZRANGE', HOSTS, 0, 1, 'WITHSCORES')
  for i = 1, #oldest, 2 do
    if oldest[i] ~= host then
      return math.max(tonumber(oldest[i + 1]), num(STATE, 'upSince', now)) + HOST_EXPIRY + 1
    end
  end
  return -1
end

if op ~= 'depart' then redis.call('ZADD', HOSTS, now, host) end
if expireHosts() then drive() end

local result
if op == 'seed' then
  -- If Redis already holds the provider, its settings win (SPEC §7).
  if redis.call('EXISTS', CFG) == 0 then
    redis.call('HSET', CFG, 'limit', ARGV[5], 'cooldownMs', ARGV[6], 'autoReduced', ARGV[7])
    if tonumber(ARGV[8]) >= 0 then redis.call('HSET', CFG, 'autoReducedFrom', ARGV[8]) end
    result = {1}
  else
    result = {0}
  end
elseif op == 'acquire' then
  local id, deadline, zero = ARGV[5], tonumber(ARGV[6]), ARGV[7] == '1'
  local pu = pausedUntil()
  if redis.call('ZCARD', QUEUE) == 0 and hasFree() then
    admit(id, now, host)
  elseif zero or (deadline >= 0 and pu and deadline < pu) then
    tell(host, 't|'..id)
  else
    local seq = redis.call('HINCRBY', STATE, 'seq', 1)
    redis.call('ZADD', QUEUE, seq, id)
    redis.call('HSET', WAITERS, id, string.format('%d|%d|%s', now, deadline, host))
  end
  result = {1}
elseif op == 'leave' then
  result = {unqueue(ARGV[5]) and 1 or 0}
elseif op == 'release' or op == 'undelivered' then
  local rec = redis.call('HGET', HELD, ARGV[5])
  if not rec then
    result = {0}
  else
    redis.call('HDEL', HELD, ARGV[5])
    local extended, untilAt, reduced = 0, 0, 0
    if op == 'release' then
      local outcome = ARGV[6]
      if outcome == 'success' then
        redis.call('HSET', STATE, 'c429', 0)
      elseif outcome == 'rate_limited' then
        extended, untilAt, reduced = rateLimited(tonumber(string.match(rec, '^(%d+)|')), tonumber(ARGV[7]))
      end
      local cooldown = num(CFG, 'cooldownMs', 0)
      if cooldown > 0 then redis.call('ZADD', RECYCLING, now + cooldown, ARGV[5]) end
    end
    drive()
    result = {1, extended, untilAt, reduced, num(CFG, 'limit', 1), num(CFG, 'autoReducedFrom', -1)}
  end
elseif op == 'setLimit' then
  redis.call('HSET', CFG, 'limit', ARGV[5], 'autoReduced', 0)
  redis.call('HDEL', CFG, 'autoReducedFrom')
  drive()
  result = {1}
elseif op == 'setCooldown' then
  redis.call('HSET', CFG, 'cooldownMs', ARGV[5])
  result = {1}
elseif op == 'resume' then
  local wasPaused = pausedUntil() and 1 or 0
  redis.call('HDEL', STATE, 'pausedUntil')
  drive()
  result = {wasPaused}
elseif op == 'drive' then
  drive()
  result = {1}
elseif op == 'depart' then
  redis.call('ZREM', HOSTS, host)
  result = {1}
elseif op == 'status' then
  result = status()
else
  return redis.error_reply('unknown shared pool operation '..tostring(op))
end

-- Other hosts with new answers are woken; the caller takes its own answers with the reply.
for h in pairs(told) do
  if h ~= host then redis.call('PUBLISH', P..':wake:'..h, '1') end
end
local inbox = redis.call('LRANGE', P..':inbox:'..host, 0, -1)
redis.call('DEL', P..':inbox:'..host)
local wakeAt = redis.call('ZRANGEBYSCORE', RECYCLING, '('..now, '+inf', 'WITHSCORES')
local times = {}
for i = 2, #wakeAt, 2 do times[#times + 1] = tonumber(wakeAt[i]) end
local pu = pausedUntil()
if pu then times[#times + 1] = pu end
return {result, inbox, times, nextExpiry()}
`;

export const POOL_SCRIPT: string = LUA;
