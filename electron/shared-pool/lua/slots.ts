// The pool script's slots and queue (SPEC §1): holding and freeing leases, recycling, queued
// waiters and the drive that admits them, TTL expiry. One unit with the usage gate's fragment
// (gate-script.ts), which it splices before drive(): drive asks gatePasses, the gate tells and
// reads the queue with these locals. Uses the prelude's locals (limit, now, tell, ...).
import { GATE_LUA } from "../gate-script";

export const SLOTS_LUA = String.raw`
-- A recycling slot is free from the instant its cooldown ends.
local recycling, held = redis.call('ZCARD', RECYCLING), redis.call('HLEN', HELD)
if recycling > 0 then
  redis.call('ZREMRANGEBYSCORE', RECYCLING, '-inf', nowArg)
  recycling = redis.call('ZCARD', RECYCLING)
end
-- Only TTL leases pay for expiries: a provider without any skips them after this ZCARD.
local expiring = redis.call('ZCARD', EXPIRIES)

-- The pause, only while it lasts: at its end instant admission is open again.
local function pausedUntil()
  if pauseEnd and now < pauseEnd then return pauseEnd end
  return nil
end
local function hasFree() return held + recycling < limit and not pausedUntil() and not holdUntil and not windowBlocks() end
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
  -- The first admission after a window's reset goes alone (SPEC §8).
  if probeReady() then windowProbe(id) end
  -- A TTL lease's expiry starts when its host delivers it (its first heartbeat, SPEC §3): an
  -- admission answered late, after a stall, must not reach its agent already expired.
  local expiresAt = -1
  if ttl >= 0 then
    expiresAt = now + ttl
    redis.call('HSET', TTLS, id, ttl)
  end
  tell(h, string.format('a|%s|%d|%d|%d', id, now, enqueuedAt, expiresAt))
end
-- A lease this host holds but Redis did not know of (re-registered or adopted): held at
-- once, over the limit if it must be, with its own expiry and ttl.
local function register(lease, leaseGen, expiresAt)
  redis.call('HSET', HELD, lease.leaseId, string.format('%d|%d|%s', leaseGen, lease.admittedAt, host))
  held = held + 1
  changed = true
  if lease.agentId ~= '' then redis.call('HSET', AGENTS, lease.leaseId, lease.agentId) end
  if lease.ttl >= 0 then
    redis.call('ZADD', EXPIRIES, expiresAt, lease.leaseId)
    redis.call('HSET', TTLS, lease.leaseId, lease.ttl)
    expiring = expiring + 1
  end
end
-- A lease stops being held: its expiry, if it had one, goes with it.
local function unhold(id)
  redis.call('HDEL', HELD, id)
  redis.call('HDEL', AGENTS, id)
  held = held - 1
  changed = true
  -- A TTL lease not yet delivered has a ttl and no expiry.
  if redis.call('HDEL', TTLS, id) == 1 and expiring > 0 and redis.call('ZREM', EXPIRIES, id) == 1 then
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
-- Waiters queued for the hosts in 'gone' (a set) leave the queue, their agents with them.
local function unqueueHosts(gone)
  local waiters = redis.call('HGETALL', WAITERS)
  for i = 1, #waiters, 2 do
    if gone[string.match(waiters[i + 1], '^%-?%d+|%-?%d+|%-?%d+|(.*)$')] then
      unqueue(waiters[i])
      redis.call('HDEL', AGENTS, waiters[i])
    end
  end
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

-- A TTL lease not heartbeated in time is released as a failure at its expiry instant, before
-- the operation is judged, as the local pool's expiry timer would have done; its host is told.
local function expireLeases()
  if expiring == 0 then return end
  local expired = redis.call('ZRANGEBYSCORE', EXPIRIES, '-inf', nowArg)
  for _, id in ipairs(expired) do
    local rec = redis.call('HGET', HELD, id)
    unhold(id)
    recycle(id)
    tell(string.match(rec, '^%-?%d+|%-?%d+|(.*)$'), 'x|'..id)
    -- Released as a failure, as the local pool's expiry does: the probe's answer came.
    if wProbe == id then windowLift(true) end
  end
  if #expired > 0 then drive() end
end

-- Told again: an admission whose reply was lost (a resent acquire, a drive naming its waiters).
local function tellAdmitted(id, rec)
  local admittedAt = string.match(rec, '^%-?%d+|(%-?%d+)|')
  local expiresAt = redis.call('ZSCORE', EXPIRIES, id) or '-1'
  tell(host, 'a|'..id..'|'..admittedAt..'|'..admittedAt..'|'..expiresAt)
end
`;
