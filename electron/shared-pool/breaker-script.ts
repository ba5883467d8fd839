// The Lua script that keeps a shared provider's route breakers in Redis (SPEC §2, §7): routes
// whose targetId is the shared provider, judged with breaker settings kept in Redis for that
// provider, so a half-open route gives one probe across all hosts. It answers as the local
// breaker (electron/engine/route-breaker.ts) does, judged at the time the host passes in;
// transitions that fall due are applied whenever a route is read, as the local one does too.
//
// Keys under `<prefix>:<providerId>:`:
//   breaker        hash  threshold, cooldownMs
//   routes         zset  route id (JSON of [targetId, runtimeId, modelId]) by last use
//   route:<id>     hash  state, failures, reason, openUntil, probeOwner, probeExpiresAt
// Channel `<prefix>:<providerId>:routes-changed`: a route was written.
//
// Reply: {result, views, events, settings}; a view is {id, state, openUntil, reason,
// failures, hasProbe, probeOwner}; an event is {kind, id, ...} for the host's history.

/** A probe that neither reports nor is released is forgotten after this long at least (as locally). */
export const MIN_PROBE_TTL_MS = 60_000;

export type BreakerOperation =
  | "seed"
  | "admit"
  | "entry"
  | "refresh"
  | "outcome"
  | "release"
  | "reset"
  | "snapshot"
  | "settings"
  | "setSettings";

export const BREAKER_SCRIPT = String.raw`
local op, P, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
local SETTINGS, ROUTES = P..':breaker', P..':routes'
local s = redis.call('HMGET', SETTINGS, 'threshold', 'cooldownMs')
local threshold, cooldown = tonumber(s[1]) or 1, tonumber(s[2]) or 0
local events, touched = {}, {}

local function refresh(r)
  if r.state == 'open' and now >= r.openUntil then
    r.state = 'half-open'
    events[#events + 1] = {'half-open', r.id}
    touched[r.id] = r
  end
  if r.probeOwner and now >= r.probeExpiresAt then
    r.probeOwner = nil
    touched[r.id] = r
  end
  return r
end

-- A route as Redis knows it; record = remember it (for the snapshot) if it is new. As in the
-- local breaker, asking about a known route moves it to the end of the use order (not a listing).
local function load(id, record, listing)
  local f = redis.call('HMGET', P..':route:'..id, 'state', 'failures', 'reason', 'openUntil', 'probeOwner', 'probeExpiresAt')
  local r = {
    id = id, state = f[1] or 'closed', failures = tonumber(f[2]) or 0, reason = f[3] or '',
    openUntil = tonumber(f[4]) or 0, probeOwner = f[5] or nil, probeExpiresAt = tonumber(f[6]) or 0,
  }
  if f[1] then
    if not listing then redis.call('ZADD', ROUTES, redis.call('HINCRBY', SETTINGS, 'seq', 1), id) end
    return refresh(r)
  end
  if record then
    redis.call('ZADD', ROUTES, redis.call('HINCRBY', SETTINGS, 'seq', 1), id)
    touched[id] = r
  end
  return r
end

local function open(r)
  r.probeOwner = nil
  r.state = 'open'
  r.openUntil = now + cooldown
  events[#events + 1] = {'opened', r.id, cooldown, r.failures, r.reason}
  touched[r.id] = r
end

local function close(r, why)
  local wasClosed = r.state == 'closed'
  r.probeOwner = nil
  r.state, r.failures, r.reason = 'closed', 0, ''
  if not wasClosed then events[#events + 1] = {'closed', r.id, why} end
  touched[r.id] = r
end

local function failed(r, reason)
  r.failures = r.failures + 1
  if reason == '' then r.reason = 'failure' else r.reason = reason end
  touched[r.id] = r
end

local function view(r)
  return {r.id, r.state, r.openUntil, r.reason, r.failures, r.probeOwner and 1 or 0, r.probeOwner or ''}
end

local result, views = 0, {}
local id, runId = ARGV[4], ARGV[5]
if op == 'seed' then
  if redis.call('EXISTS', SETTINGS) == 0 or not s[1] then
    threshold, cooldown = tonumber(ARGV[4]), tonumber(ARGV[5])
    redis.call('HSET', SETTINGS, 'threshold', threshold, 'cooldownMs', cooldown)
    result = 1
  end
elseif op == 'admit' then
  local r = load(id, true)
  if r.state == 'half-open' and not r.probeOwner then
    r.probeOwner, r.probeExpiresAt = runId, now + math.max(cooldown, ${MIN_PROBE_TTL_MS})
    touched[id] = r
    result = 1
  elseif r.probeOwner == runId then
    result = 1
  elseif r.state == 'open' or (r.state == 'half-open' and r.probeOwner) then
    result = 0
  else
    result = 1
  end
  views[1] = view(r)
elseif op == 'entry' then
  views[1] = view(load(id, false))
elseif op == 'refresh' then
  -- A host's timer at the end of an open period: applies what fell due, not a use of the route.
  views[1] = view(load(id, false, true))
elseif op == 'outcome' then
  local r, outcome, reason = load(id, true), ARGV[6], ARGV[7]
  if r.state ~= 'closed' then
    -- While open or half-open only the probe's verdict counts.
    if r.probeOwner == runId then
      if outcome == 'success' then
        close(r, 'after a successful probe')
      elseif outcome == 'failure' then
        failed(r, reason)
        open(r)
      else
        r.probeOwner = nil
        touched[id] = r
      end
    end
  elseif outcome == 'success' then
    if r.failures ~= 0 or r.reason ~= '' then close(r, 'after a success') end
  elseif outcome == 'failure' then
    failed(r, reason)
    if r.failures >= threshold and cooldown > 0 then open(r) end
  end
  views[1] = view(r)
elseif op == 'release' then
  local r = load(id, false)
  if r.probeOwner == runId then
    r.probeOwner = nil
    touched[id] = r
  end
  views[1] = view(r)
elseif op == 'reset' then
  local r = load(id, false)
  if r.state ~= 'closed' or r.failures > 0 or r.reason ~= '' then close(r, 'by hand') end
  views[1] = view(r)
elseif op == 'snapshot' then
  for _, routeId in ipairs(redis.call('ZRANGE', ROUTES, 0, -1)) do views[#views + 1] = view(load(routeId, false, true)) end
elseif op == 'setSettings' then
  if ARGV[4] ~= '' then threshold = tonumber(ARGV[4]) end
  if ARGV[5] ~= '' then cooldown = tonumber(ARGV[5]) end
  redis.call('HSET', SETTINGS, 'threshold', threshold, 'cooldownMs', cooldown)
  if cooldown == 0 then
    -- Disabling the breaker lets every route through now, not after its cooldown.
    for _, routeId in ipairs(redis.call('ZRANGE', ROUTES, 0, -1)) do
      local r = load(routeId, false, true)
      if r.state ~= 'closed' then close(r, 'because the breaker was disabled') end
    end
  end
elseif op ~= 'settings' then
  return redis.error_reply('unknown shared breaker operation '..tostring(op))
end

-- A route touched only by a read that changed nothing is not written, nor created.
for routeId, r in pairs(touched) do
  local key = P..':route:'..routeId
  redis.call('HSET', key, 'state', r.state, 'failures', r.failures, 'reason', r.reason, 'openUntil', r.openUntil)
  if r.probeOwner then
    redis.call('HSET', key, 'probeOwner', r.probeOwner, 'probeExpiresAt', r.probeExpiresAt)
  else
    redis.call('HDEL', key, 'probeOwner', 'probeExpiresAt')
  end
end
-- Hosts keeping a view of these routes read them again (SharedRouteBreaker.watch).
if next(touched) ~= nil then redis.call('PUBLISH', P..':routes-changed', '1') end
return {result, views, events, {threshold, cooldown}}
`;
