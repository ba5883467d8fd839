// The pool script's operations that bring a host's state into Redis (SPEC §3, §7): joining
// ('seed'), re-registering in a Redis that lost the state ('rejoin'), and adopting leases Redis
// did not know of ('adopt'). Uses the prelude's, slots.ts's and hosts.ts's locals.
import { HOST_EXPIRY_MS } from "./hosts";

export const JOIN_OPS_LUA = String.raw`
-- The settings a host sent (cfg field/value pairs) written to cfg and to the locals.
local function takeSettings()
  local fields = {}
  for field, value in pairs(settings) do
    fields[#fields + 1] = field
    fields[#fields + 1] = value
  end
  redis.call('HSET', CFG, unpack(fields))
  if not settings.autoReducedFrom then redis.call('HDEL', CFG, 'autoReducedFrom') end
  limit, cooldown = tonumber(settings.limit), tonumber(settings.cooldownMs)
  autoReduced, autoReducedFrom = tonumber(settings.autoReduced), tonumber(settings.autoReducedFrom)
end
local function newEpoch(id)
  epoch = id
  redis.call('SET', P..':epoch', epoch)
  redis.call('HSET', STATE, 'epochAt', nowArg)
end

-- settings: the host's limit, cooldownMs, autoReduced, autoReducedFrom; if Redis already holds
-- the provider, its settings win (SPEC §7).
function ops.seed()
  if not epoch then newEpoch(epochArg) end
  changed = true -- one more live host, if nothing else
  local seeded = redis.call('EXISTS', CFG) == 0
  if seeded then
    settings.version = 0
    takeSettings()
  end
  -- A host starting has no waiters yet: those Redis queues for it are a previous run's, and so
  -- are admissions left in its inbox, which no one will take (their slots return at once). Its
  -- previous run's leases stay held for it to adopt.
  unqueueHosts({[host] = true})
  for _, entry in ipairs(redis.call('LRANGE', P..':inbox:'..host, 0, -1)) do
    local id = string.match(entry, '^a|(.*)|%-?%d+|%-?%d+|%-?%d+$')
    if id and redis.call('HEXISTS', HELD, id) == 1 then unhold(id) end
  end
  redis.call('DEL', P..':inbox:'..host)
  gateForget({host})
  drive()
  return {seeded = seeded, epoch = epoch}
end

-- Redis lost the state this host joined (epochArg); arg.newEpoch is a new one, settings the
-- newest this host saw with their version (none if it saw none), arg.leases (JSON) its leases.
-- The first host back opens a 10 s window in which new admissions wait; a lease re-registered
-- after it is still taken (and may exceed the limit).
function ops.rejoin()
  if epoch == epochArg then return {rejoined = false, epoch = epoch, late = 0} end
  if not epoch then newEpoch(arg.newEpoch) end
  local holdEnd = (tonumber(redis.call('HGET', STATE, 'epochAt')) or now) + ${HOST_EXPIRY_MS}
  if now < holdEnd then
    holdUntil = holdEnd
    redis.call('HSET', STATE, 'holdUntil', holdEnd)
  end
  if (tonumber(settings.version) or -1) > settingsVersion then takeSettings() end
  redis.call('ZADD', HOSTS, nowArg, host)
  local late = 0
  for _, lease in ipairs(cjson.decode(arg.leases)) do
    if redis.call('HEXISTS', HELD, lease.leaseId) == 0 then
      register(lease, gen, lease.expiresAt)
      if now >= holdEnd then late = late + 1 end
    end
  end
  changed = true
  return {rejoined = true, epoch = epoch, late = late}
end

-- arg.leases (JSON): the leases to adopt. Answers per lease: its expiry (-1 none) once this
-- host holds it, -2 when another host holds it, -3 when it had expired already (released as
-- a failure).
function ops.adopt()
  local expiries = {}
  -- Once reduced, whether it predates the last reduction is unknown: its 429 does not reduce again.
  local leaseGen = autoReduced == 1 and -1 or gen
  for _, lease in ipairs(cjson.decode(arg.leases)) do
    local id, expiresAt, ttl = lease.leaseId, lease.expiresAt, lease.ttl
    local rec = redis.call('HGET', HELD, id)
    if rec then
      -- Still held from before the host's restart: nothing to do.
      local owner = string.match(rec, '^%-?%d+|%-?%d+|(.*)$')
      expiries[#expiries + 1] = owner == host and tonumber(redis.call('ZSCORE', EXPIRIES, id) or -1) or -2
    else
      -- Its agent could not heartbeat while no host had it: it runs at least its ttl from now.
      if ttl >= 0 then expiresAt = math.max(expiresAt, now + ttl) end
      if ttl >= 0 and expiresAt <= now then
        if cooldown > 0 and expiresAt + cooldown > now then
          redis.call('ZADD', RECYCLING, expiresAt + cooldown, id)
          recycling = recycling + 1
          changed = true
        end
        expiries[#expiries + 1] = -3
      else
        register(lease, leaseGen, expiresAt)
        expiries[#expiries + 1] = expiresAt
      end
    end
  end
  return {expiries = expiries}
end
`;
