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
// ARGV and the reply are named in breaker-protocol.ts: the reply is one JSON value of routes
// (views), events for the host's history, and the settings in force.
import { LIMITS } from "../../shared/limits";
import { BREAKER_ARGS } from "./breaker-protocol";

/** A probe that neither reports nor is released is forgotten after this long at least (as locally). */
const MIN_PROBE_TTL_MS = 60_000;

const NAMES_LUA = `{${Object.entries(BREAKER_ARGS)
  .map(([op, names]) => `${op} = {${names.map((name) => `'${name}'`).join(", ")}}`)
  .join(", ")}}`;

export const BREAKER_SCRIPT = String.raw`
-- Every operation starts with the operation, the key prefix and the host's time.
local op, P, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
-- The operation's own arguments by name; settings (seed, setSettings) follow as field/value pairs.
local NAMES = ${NAMES_LUA}
local names = NAMES[op]
if not names then return redis.error_reply('unknown shared breaker operation '..tostring(op)) end
local arg, given = {}, {}
for i, name in ipairs(names) do arg[name] = ARGV[3 + i] end
for i = 4 + #names, #ARGV, 2 do given[ARGV[i]] = tonumber(ARGV[i + 1]) end
local SETTINGS, ROUTES = P..':breaker', P..':routes'
local s = redis.call('HMGET', SETTINGS, 'threshold', 'cooldownMs')
-- Settings Redis lost (or never had) are the defaults until a host seeds them.
local threshold = tonumber(s[1]) or ${LIMITS.threshold.default}
local cooldown = tonumber(s[2]) or ${LIMITS.breakerCooldownMs.default}
local events, touched = {}, {}

local function refresh(r)
  if r.state == 'open' and now >= r.openUntil then
    r.state = 'half-open'
    events[#events + 1] = {kind = 'half-open', id = r.id}
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
  events[#events + 1] = {kind = 'opened', id = r.id, cooldownMs = cooldown, failures = r.failures, reason = r.reason}
  touched[r.id] = r
end

local function close(r, why)
  local wasClosed = r.state == 'closed'
  r.probeOwner = nil
  r.state, r.failures, r.reason = 'closed', 0, ''
  if not wasClosed then events[#events + 1] = {kind = 'closed', id = r.id, why = why} end
  touched[r.id] = r
end

local function failed(r, reason)
  r.failures = r.failures + 1
  if reason == '' then r.reason = 'failure' else r.reason = reason end
  touched[r.id] = r
end

-- breaker-protocol.ts BreakerView: probeOwner only while a probe is out.
local function view(r)
  return {id = r.id, state = r.state, openUntil = r.openUntil, reason = r.reason, failures = r.failures, probeOwner = r.probeOwner}
end

local reply, views = {}, {}
local id, runId = arg.routeId, arg.runId
if op == 'seed' then
  reply.seeded = redis.call('EXISTS', SETTINGS) == 0 or not s[1]
  if reply.seeded then
    threshold, cooldown = given.threshold, given.cooldownMs
    redis.call('HSET', SETTINGS, 'threshold', threshold, 'cooldownMs', cooldown)
  end
elseif op == 'admit' then
  local r = load(id, true)
  if r.state == 'half-open' and not r.probeOwner then
    r.probeOwner, r.probeExpiresAt = runId, now + math.max(cooldown, ${MIN_PROBE_TTL_MS})
    touched[id] = r
    reply.admitted = true
  elseif r.probeOwner == runId then
    reply.admitted = true
  else
    reply.admitted = not (r.state == 'open' or (r.state == 'half-open' and r.probeOwner))
  end
  views[1] = view(r)
elseif op == 'entry' then
  views[1] = view(load(id, false))
elseif op == 'refresh' then
  -- A host's timer at the end of an open period: applies what fell due, not a use of the route.
  views[1] = view(load(id, false, true))
elseif op == 'outcome' then
  local r, outcome, reason = load(id, true), arg.outcome, arg.reason
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
  threshold, cooldown = given.threshold or threshold, given.cooldownMs or cooldown
  redis.call('HSET', SETTINGS, 'threshold', threshold, 'cooldownMs', cooldown)
  if cooldown == 0 then
    -- Disabling the breaker lets every route through now, not after its cooldown.
    for _, routeId in ipairs(redis.call('ZRANGE', ROUTES, 0, -1)) do
      local r = load(routeId, false, true)
      if r.state ~= 'closed' then close(r, 'because the breaker was disabled') end
    end
  end
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
reply.routes, reply.events, reply.settings = views, events, {threshold = threshold, cooldownMs = cooldown}
return cjson.encode(reply)
`;
