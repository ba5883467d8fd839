// The pool script's settings and reading (SPEC §1, §7): the limit and cooldown set by hand,
// lifting the pause, and the status every host shows. Uses the prelude's and slots.ts's locals.
import { HOST_EXPIRY_MS } from "./hosts";

export const SETTINGS_OPS_LUA = String.raw`
function ops.setLimit()
  local restoring = autoReduced == 1 and tonumber(arg.limit) > limit
  limit, autoReduced, autoReducedFrom = tonumber(arg.limit), 0, nil
  -- A restore out of a reduction: a 429 soon after says it did not stick (rate-limits.ts).
  if restoring then redis.call('HSET', STATE, 'restoredAt', now) else redis.call('HDEL', STATE, 'restoredAt') end
  redis.call('HDEL', STATE, 'loweredAgainMs')
  redis.call('HSET', CFG, 'limit', limit, 'autoReduced', 0)
  redis.call('HDEL', CFG, 'autoReducedFrom')
  changedSettings()
  changed = true
  drive()
  return {done = true}
end

function ops.setCooldown()
  redis.call('HSET', CFG, 'cooldownMs', arg.cooldownMs)
  changedSettings()
  changed = true
  return {done = true}
end

function ops.resume()
  local wasPaused = pausedUntil() ~= nil or wUntil ~= nil or wProbe ~= nil
  if wUntil or wProbe then windowLift(false) end
  redis.call('HDEL', STATE, 'pausedUntil')
  pauseEnd = nil
  changed = changed or wasPaused
  drive()
  return {wasPaused = wasPaused}
end

-- pool-protocol.ts StatusResult: a field that does not apply is absent.
function ops.status()
  return {
    limit = limit, active = held, queued = redis.call('ZCARD', QUEUE), pausedUntil = pausedUntil(),
    resuming = redis.call('ZCOUNT', QUEUE, '-inf', '(0'),
    pauseReason = pauseReason, cooldownMs = cooldown, autoReduced = autoReduced == 1,
    autoReducedFrom = autoReducedFrom, recycling = recycling,
    loweredAgainMs = autoReduced == 1 and tonumber(redis.call('HGET', STATE, 'loweredAgainMs')) or nil,
    hosts = redis.call('ZCOUNT', HOSTS, now - ${HOST_EXPIRY_MS}, '+inf'), version = math.max(settingsVersion, 0),
    windowUntil = windowPausedUntil(), windowLabel = wLabel, probing = wProbe ~= nil,
    sightings = redis.call('HVALS', WINDOWS), rejoinHoldUntil = holdUntil,
  }
end
`;
