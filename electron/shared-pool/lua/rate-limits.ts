// What a 429 and the provider's headers do to a shared provider (SPEC §1, §6), as the engine's
// rate-limit-policy.ts does it locally: the pause and its backoff, the reduction, the early
// pause. The backoff constants come from the engine's own module, so there is one place to
// change them. Uses the prelude's and slots.ts's locals (pausedUntil, timeOutBefore, ...).
import { RESTORE_STICKS_AFTER_MS } from "../../engine/adaptive-limit";
import { FIRST_BACKOFF_MS, MAX_BACKOFF_MS, MAX_RETRY_AFTER_MS } from "../../engine/backoff";

export const RATE_LIMITS_LUA = String.raw`
local FIRST_BACKOFF, MAX_BACKOFF, MAX_RETRY_AFTER = ${FIRST_BACKOFF_MS}, ${MAX_BACKOFF_MS}, ${MAX_RETRY_AFTER_MS}
local RESTORE_STICKS_AFTER = ${RESTORE_STICKS_AFTER_MS}

local function pauseAfter429(consecutive, retryAfter)
  if retryAfter then return math.min(math.max(0, retryAfter), MAX_RETRY_AFTER) end
  local doublings = math.min(math.max(0, consecutive - 1), 30)
  return math.min(FIRST_BACKOFF * 2 ^ doublings, MAX_BACKOFF)
end

-- What the 429 did (pool-protocol.ts Judged429): the pause extended and its end, the limit lowered.
local function rateLimited(leaseGen, retryAfter)
  -- While a used-up window pauses the provider a 429 is the window's refusal: no backoff, no reduction.
  if windowBlocks() then return {extended = false, pausedUntil = now, reduced = false, limit = limit} end
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
  local extended = false
  if untilAt > now and (not current or untilAt > current) then
    redis.call('HSET', STATE, 'pausedUntil', untilAt)
    pauseEnd = untilAt
    extended = true
    timeOutBefore(untilAt)
  end
  -- One pause window lowers the limit once; a late 429 from a lease admitted before the
  -- last reduction speaks of the old limit; at limit 1 a 429 only pauses.
  local judged = {extended = extended, pausedUntil = untilAt, reduced = false}
  if not (wasPaused or leaseGen ~= gen or limit <= 1) then
    if autoReduced == 0 then
      autoReducedFrom = limit
      redis.call('HSET', CFG, 'autoReducedFrom', limit)
    end
    limit, autoReduced, gen = limit - 1, 1, gen + 1
    redis.call('HSET', CFG, 'limit', limit, 'autoReduced', 1)
    changedSettings()
    redis.call('HSET', STATE, 'gen', gen)
    judged.reduced = true
    -- Within a minute of a restore by hand: the restore did not stick (adaptive-limit.ts).
    local restoredAt = tonumber(redis.call('HGET', STATE, 'restoredAt'))
    redis.call('HDEL', STATE, 'restoredAt')
    if restoredAt and now - restoredAt <= RESTORE_STICKS_AFTER then
      judged.loweredAgainMs = now - restoredAt
      redis.call('HSET', STATE, 'loweredAgainMs', judged.loweredAgainMs)
    else
      redis.call('HDEL', STATE, 'loweredAgainMs')
    end
  end
  judged.limit = limit
  return judged
end
local function leaseGenOf(rec) return tonumber(string.match(rec, '^(%-?%d+)|')) end

-- A request riding on a held lease got a 429: the pause and the reduction of its
-- 'rate_limited' release, and it stays held.
function ops.rateLimitedOn()
  local rec = redis.call('HGET', HELD, arg.leaseId)
  if not rec then return {held = false} end
  local judged = rateLimited(leaseGenOf(rec), tonumber(arg.retryAfter))
  judged.held = true
  return judged
end

-- The early pause (the provider's headers say no requests are left until arg.untilAt): never
-- shortens a longer pause, lowers nothing, keeps the backoff. A pause it starts shows
-- arg.reason until a 429 takes the window over.
function ops.pauseUntil()
  local current = pausedUntil()
  local untilAt = math.min(tonumber(arg.untilAt), now + MAX_RETRY_AFTER)
  if untilAt <= now or (current and untilAt <= current) then return {paused = false, pausedUntil = current} end
  if current then
    redis.call('HSET', STATE, 'pausedUntil', untilAt)
  else
    pauseReason = arg.reason
    redis.call('HSET', STATE, 'pausedUntil', untilAt, 'pauseReason', pauseReason)
  end
  pauseEnd = untilAt
  changed = true
  timeOutBefore(untilAt)
  return {paused = true, pausedUntil = untilAt}
end
`;
