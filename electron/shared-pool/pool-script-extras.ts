// The pool script's operations beyond admission and release (SPEC §3, §6, §7): adopting leases
// Redis did not know of, listing every host's leases and waiters, a 429 on a lease that stays
// held, and the early pause. A Lua fragment spliced into pool-script.ts, where the locals and
// functions it uses (held, now, register, rateLimited, timeOutBefore, ...) are defined.
export const EXTRA_OPERATIONS = ["adopt", "leases", "rateLimitedOn", "pauseUntil"] as const;

export const EXTRAS_LUA = String.raw`
local extras = {}

-- ARGV[6..]: five arguments per lease: id, admittedAt, expiresAt (-1 none), ttl (-1 none),
-- agentId ('' none). Answers per lease: its expiry (-1 none) once this host holds it, -2 when
-- another host holds it, -3 when it had expired already (released as a failure).
function extras.adopt()
  local answers = {}
  -- Once reduced, whether it predates the last reduction is unknown: its 429 does not reduce again.
  local leaseGen = autoReduced == 1 and -1 or gen
  for i = 6, #ARGV, 5 do
    local id, expiresAt, ttl = ARGV[i], tonumber(ARGV[i + 2]), tonumber(ARGV[i + 3])
    local rec = redis.call('HGET', HELD, id)
    if rec then
      -- Still held from before the host's restart: nothing to do.
      local owner = string.match(rec, '^%-?%d+|%-?%d+|(.*)$')
      answers[#answers + 1] = owner == host and tonumber(redis.call('ZSCORE', EXPIRIES, id) or -1) or -2
    else
      -- Its agent could not heartbeat while no host had it: it runs at least its ttl from now.
      if ttl >= 0 then expiresAt = math.max(expiresAt, now + ttl) end
      if ttl >= 0 and expiresAt <= now then
        if cooldown > 0 and expiresAt + cooldown > now then
          redis.call('ZADD', RECYCLING, expiresAt + cooldown, id)
          recycling = recycling + 1
          changed = true
        end
        answers[#answers + 1] = -3
      else
        register(id, leaseGen, ARGV[i + 1], expiresAt, ttl, ARGV[i + 4])
        answers[#answers + 1] = expiresAt
      end
    end
  end
  return answers
end

-- How many leases are held, then per lease: id, admittedAt, expiresAt (-1 none), host, agentId
-- ('' none); then per waiter, oldest first: id, enqueuedAt, host, agentId.
function extras.leases()
  local out = {0}
  local function push(...)
    for _, value in ipairs({...}) do out[#out + 1] = value end
  end
  local agents = {}
  local named = redis.call('HGETALL', AGENTS)
  for i = 1, #named, 2 do agents[named[i]] = named[i + 1] end
  local leases = redis.call('HGETALL', HELD)
  for i = 1, #leases, 2 do
    local id = leases[i]
    local admittedAt, h = string.match(leases[i + 1], '^%-?%d+|(%-?%d+)|(.*)$')
    local expiresAt = expiring > 0 and redis.call('ZSCORE', EXPIRIES, id) or -1
    push(id, admittedAt, expiresAt, h, agents[id] or '')
  end
  out[1] = #leases / 2
  local ids = redis.call('ZRANGE', QUEUE, 0, -1)
  if #ids > 0 then
    local recs = redis.call('HMGET', WAITERS, unpack(ids))
    for i, id in ipairs(ids) do
      local enq, h = string.match(recs[i], '^(%-?%d+)|%-?%d+|%-?%d+|(.*)$')
      push(id, enq, h, agents[id] or '')
    end
  end
  return out
end

-- ARGV[6]: a held lease, ARGV[7]: Retry-After in ms ('' none). A request riding on the lease got
-- a 429: the pause and the reduction of its 'rate_limited' release, and it stays held.
function extras.rateLimitedOn()
  local rec = redis.call('HGET', HELD, ARGV[6])
  if not rec then return {0} end
  local extended, untilAt, reduced = rateLimited(tonumber(string.match(rec, '^(%-?%d+)|')), tonumber(ARGV[7]))
  return {1, extended, untilAt, reduced, limit}
end

-- ARGV[6]: when the pause should end, ARGV[7]: why. The early pause (the provider's headers
-- say no requests are left): never shortens a longer pause, lowers nothing, keeps the backoff.
-- A pause it starts shows its reason until a 429 takes the window over.
function extras.pauseUntil()
  local current = pausedUntil()
  local untilAt = math.min(tonumber(ARGV[6]), now + MAX_RETRY_AFTER)
  if untilAt <= now or (current and untilAt <= current) then return {0, current or -1} end
  if current then
    redis.call('HSET', STATE, 'pausedUntil', untilAt)
  else
    pauseReason = ARGV[7]
    redis.call('HSET', STATE, 'pausedUntil', untilAt, 'pauseReason', pauseReason)
  end
  pauseEnd = untilAt
  changed = true
  timeOutBefore(untilAt)
  return {1, untilAt}
end
`;
