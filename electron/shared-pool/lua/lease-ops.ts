// The pool script's admission and release operations (SPEC §1, §3, §7): acquire, leave,
// release and undelivered, heartbeat, drive, and the list of every host's leases and waiters.
// Uses the prelude's, slots.ts's and rate-limits.ts's locals.

/** How long a release's answer is kept for a resend of the same request (SPEC §7: nothing acknowledged twice). */
const RELEASE_MEMORY_MS = 600_000;

/** Taken off a resuming waiter's arrival number, so it sorts before every other (scores stay exact below 2^53). */
const RESUMING_OFFSET = 2 ** 50;

export const LEASE_OPS_LUA = String.raw`
local RELEASE_MEMORY = ${RELEASE_MEMORY_MS}
local RESUMING_OFFSET = ${RESUMING_OFFSET}

function ops.acquire()
  local id, deadline, zero, ttl, agent = arg.waiterId, tonumber(arg.deadline), arg.zero == '1', tonumber(arg.ttl), arg.agentId or ''
  local pu = anyPauseUntil()
  -- The client resends a command whose reply a dropped connection lost: the second one finds
  -- the waiter already held (its admission is told again) or queued, and changes nothing.
  local already = redis.call('HGET', HELD, id)
  if already then
    tellAdmitted(id, already)
  elseif redis.call('HEXISTS', WAITERS, id) == 1 then
    -- still queued: nothing to do
  elseif hasFree() and redis.call('ZCARD', QUEUE) == 0 then
    if agent ~= '' then redis.call('HSET', AGENTS, id, agent) end
    admit(id, now, host, ttl)
  elseif zero or (deadline >= 0 and pu and deadline < pu) then
    tell(host, 't|'..id)
  else
    local seq = redis.call('HINCRBY', STATE, 'seq', 1)
    -- Resuming waiters (SPEC §1, §8) score below every other, in their own arrival order.
    if arg.resume == '1' then seq = seq - RESUMING_OFFSET end
    redis.call('ZADD', QUEUE, seq, id)
    redis.call('HSET', WAITERS, id, string.format('%d|%d|%d|%s', now, deadline, ttl, host))
    if agent ~= '' then redis.call('HSET', AGENTS, id, agent) end
    changed = true
  end
  return {done = true}
end

function ops.leave()
  local left = unqueue(arg.waiterId) ~= nil
  if left then redis.call('HDEL', AGENTS, arg.waiterId) end
  return {left = left}
end

-- Each release carries a request id: the client resends a command whose reply a dropped
-- connection lost, and the resend must get the first answer, not "not held".
local function letGo(judge)
  local request = P..':done:'..arg.requestId
  local rec = redis.call('HGET', HELD, arg.leaseId)
  if not rec then
    local done = redis.call('GET', request)
    if done then return cjson.decode(done) end
    return {released = false}
  end
  unhold(arg.leaseId)
  local result = judge and judge(rec) or {}
  drive()
  result.released = true
  redis.call('SET', request, cjson.encode(result), 'PX', RELEASE_MEMORY)
  return result
end

function ops.release()
  return letGo(function(rec)
    local result = {extended = false, pausedUntil = 0, reduced = false}
    probeReleased(arg.leaseId, arg.outcome)
    if arg.outcome == 'success' then
      if c429 ~= 0 then redis.call('HSET', STATE, 'c429', 0) end
    elseif arg.outcome == 'rate_limited' then
      result = rateLimited(leaseGenOf(rec), tonumber(arg.retryAfter))
    end
    recycle(arg.leaseId)
    result.limit = limit
    return result
  end)
end

function ops.undelivered()
  return letGo(function()
    probeUndelivered(arg.leaseId)
    return {}
  end)
end

-- A held TTL lease runs for its ttl from now; a lease without one is only confirmed held.
function ops.heartbeat()
  local ttl = redis.call('HEXISTS', HELD, arg.leaseId) == 1 and (redis.call('HGET', TTLS, arg.leaseId) or -1)
  if not ttl then return {held = false} end
  if ttl == -1 then return {held = true} end
  -- The first heartbeat, as the host delivers the lease, starts its expiry: the reply's wake-up then counts it.
  if redis.call('ZADD', EXPIRIES, now + tonumber(ttl), arg.leaseId) == 1 then expiring = expiring + 1 end
  return {held = true, expiresAt = now + tonumber(ttl)}
end

-- arg.waiterIds (JSON): the waiters this host still waits for. One admitted by a reply that a
-- killed Redis or a dropped connection lost (a drive's inbox, a release admitting this host's
-- waiter) is told again, or it would wait forever while its slot stays held.
function ops.drive()
  drive()
  local ids = cjson.decode(arg.waiterIds)
  if #ids > 0 then
    local recs = redis.call('HMGET', HELD, unpack(ids))
    for i, rec in ipairs(recs) do
      if rec then tellAdmitted(ids[i], rec) end
    end
  end
  return {done = true}
end

-- Every held lease and every waiter, oldest first (pool-protocol.ts HeldRow, WaiterRow).
function ops.leases()
  local agents = {}
  local named = redis.call('HGETALL', AGENTS)
  for i = 1, #named, 2 do agents[named[i]] = named[i + 1] end
  local heldRows, waitingRows = {}, {}
  local leases = redis.call('HGETALL', HELD)
  for i = 1, #leases, 2 do
    local id = leases[i]
    local admittedAt, h = string.match(leases[i + 1], '^%-?%d+|(%-?%d+)|(.*)$')
    local expiresAt = expiring > 0 and tonumber(redis.call('ZSCORE', EXPIRIES, id)) or nil
    heldRows[#heldRows + 1] = {leaseId = id, admittedAt = tonumber(admittedAt), expiresAt = expiresAt, host = h, agentId = agents[id]}
  end
  local scored = redis.call('ZRANGE', QUEUE, 0, -1, 'WITHSCORES')
  if #scored > 0 then
    local ids = {}
    for i = 1, #scored, 2 do ids[#ids + 1] = scored[i] end
    local recs = redis.call('HMGET', WAITERS, unpack(ids))
    for i, id in ipairs(ids) do
      local enq, h = string.match(recs[i], '^(%-?%d+)|%-?%d+|%-?%d+|(.*)$')
      local row = {waiterId = id, enqueuedAt = tonumber(enq), host = h, agentId = agents[id]}
      if tonumber(scored[2 * i]) < 0 then row.resuming = true end
      waitingRows[#waitingRows + 1] = row
    end
  end
  return {held = heldRows, waiting = waitingRows}
end
`;
