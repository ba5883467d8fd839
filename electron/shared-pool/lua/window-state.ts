// A used-up plan window's pause and the probe at its reset, in Redis (SPEC §8 "Shared
// providers": one account, one window, on every host), as the engine's window-pause.ts keeps
// them locally. Two fragments: the state, read once and consulted by slots.ts's hasFree and
// admit (before it), and the operations that change it (after slots.ts and rate-limits.ts,
// whose timeOutBefore and drive they use).
//   state  wUntil (the pause's end; once passed, the next admission is the probe), wLabel,
//          wProbe (the probe's lease id), wProbeAt (its admission)
//   windows  hash  window name -> the newest sighting any host read (JSON), kept 8 days
//   windows-seen  zset  window name -> when a host last read it (Redis's clock): a name not
//          read for 8 days is forgotten; the account's windows always keep a place among
//          MAX_WINDOWS and the other names fill what is left, newest first, so answers full
//          of other names never keep a real 5h from the other hosts
// What a host tells its history (window_exhausted, window_reset) goes back in the reply's
// windowEvents, to the host whose operation caused it.
import { MAX_WINDOW_PAUSE_MS, PROBE_MS } from "../../engine/window-pause";
import { ACCOUNT_WINDOWS, MAX_WINDOWS } from "../../engine/window-readings";

const ACCOUNT_WINDOWS_LUA = `{${ACCOUNT_WINDOWS.map((name) => `['${name}'] = true`).join(", ")}}`;
/** A window name not read for this long is forgotten (as long as the longest pause). */
const WINDOW_NAME_KEPT_MS = MAX_WINDOW_PAUSE_MS;

export const WINDOW_STATE_LUA = String.raw`
local MAX_WINDOW_PAUSE, PROBE, MAX_WINDOWS = ${MAX_WINDOW_PAUSE_MS}, ${PROBE_MS}, ${MAX_WINDOWS}
local WINDOWS, WINDOWS_SEEN = P..':windows', P..':windows-seen'
local ws = redis.call('HMGET', STATE, 'wUntil', 'wLabel', 'wProbe', 'wProbeAt')
-- HMGET answers false for a missing field: 'or nil' keeps the locals' absent as nil.
local wUntil, wLabel, wProbe, wProbeAt = tonumber(ws[1]), ws[2] or nil, ws[3] or nil, tonumber(ws[4])
local windowEvents = {}

-- The pause is over or lifted by hand; 'reset' tells the history the window is open again.
local function windowLift(reset)
  if reset and wLabel then windowEvents[#windowEvents + 1] = {kind = 'window_reset', label = wLabel, at = now} end
  redis.call('HDEL', STATE, 'wUntil', 'wLabel', 'wProbe', 'wProbeAt')
  wUntil, wLabel, wProbe, wProbeAt = nil, nil, nil, nil
  changed = true
end
-- A probe that got no answer within PROBE counts as a success, as the local timer decides.
if wProbe and now >= wProbeAt + PROBE then windowLift(true) end

local function windowPausedUntil()
  if wUntil and now < wUntil then return wUntil end
  return nil
end
-- Paused, or the probe is out: no other admission.
local function windowBlocks() return wProbe ~= nil or windowPausedUntil() ~= nil end
-- The reset passed and no probe is out: the next admission is the probe.
local function probeReady() return wUntil ~= nil and now >= wUntil and not wProbe end
local function windowProbe(id)
  redis.call('HDEL', STATE, 'wUntil')
  redis.call('HSET', STATE, 'wProbe', id, 'wProbeAt', nowArg)
  wUntil, wProbe, wProbeAt = nil, id, now
end
`;

export const WINDOW_OPS_LUA = String.raw`
-- A window is used up: pause until its reset (or PROBE without one), at most MAX_WINDOW_PAUSE
-- away, extending a pause and never shortening it.
local function windowUsedUp(label, resetsAt)
  local untilAt = now + PROBE
  if resetsAt and resetsAt > now then untilAt = math.min(resetsAt, now + MAX_WINDOW_PAUSE) end
  local current = windowPausedUntil()
  if current and untilAt <= current then return end
  local fresh = not wUntil and not wProbe
  redis.call('HDEL', STATE, 'wProbe', 'wProbeAt')
  redis.call('HSET', STATE, 'wUntil', untilAt, 'wLabel', label)
  wUntil, wLabel, wProbe, wProbeAt = untilAt, label, nil, nil
  changed = true
  if fresh then windowEvents[#windowEvents + 1] = {kind = 'window_exhausted', label = label, untilAt = untilAt, at = now} end
  timeOutBefore(untilAt)
end

-- The later of the 429 pause and the window's: what a waiter's deadline is held against.
local function anyPauseUntil()
  local rate, window = pausedUntil(), windowPausedUntil()
  if not rate then return window end
  if not window then return rate end
  return math.max(rate, window)
end

-- The probe's lease was released: a 429 pauses again, anything else opens the window.
local function probeReleased(id, outcome)
  if wProbe ~= id then return end
  if outcome == 'rate_limited' then windowUsedUp(wLabel, nil) else windowLift(true) end
end

-- The probe's admission never reached its agent: the next admission is the probe.
local function probeUndelivered(id)
  if wProbe ~= id then return end
  redis.call('HDEL', STATE, 'wProbe', 'wProbeAt')
  redis.call('HSET', STATE, 'wUntil', nowArg)
  wUntil, wProbe, wProbeAt = now, nil, nil
  changed = true
end

local ACCOUNT_WINDOWS = ${ACCOUNT_WINDOWS_LUA}
local WINDOW_NAME_KEPT = ${WINDOW_NAME_KEPT_MS}

local function windowForget(name)
  redis.call('HDEL', WINDOWS, name)
  redis.call('ZREM', WINDOWS_SEEN, name)
end

-- At most MAX_WINDOWS names: those not read for WINDOW_NAME_KEPT go, the account's windows stay,
-- the others keep what room is left, the most recently read first. Each pass sees at most
-- MAX_WINDOWS names plus one reading's.
local function windowsTrim()
  for _, name in ipairs(redis.call('ZRANGEBYSCORE', WINDOWS_SEEN, '-inf', '(' .. string.format('%d', now - WINDOW_NAME_KEPT))) do
    windowForget(name)
  end
  local names = redis.call('ZREVRANGE', WINDOWS_SEEN, 0, -1)
  local room = MAX_WINDOWS
  for _, name in ipairs(names) do
    if ACCOUNT_WINDOWS[name] then room = room - 1 end
  end
  for _, name in ipairs(names) do
    if not ACCOUNT_WINDOWS[name] then
      if room > 0 then room = room - 1 else windowForget(name) end
    end
  end
  -- A sighting kept before names had a last-read time (the first 8 ever seen) has none: it goes.
  for _, name in ipairs(redis.call('HKEYS', WINDOWS)) do
    if not redis.call('ZSCORE', WINDOWS_SEEN, name) then redis.call('HDEL', WINDOWS, name) end
  end
end

-- A reading from an answer: arg.usedUp '1' names the used-up window (arg.label, arg.resetsAt
-- '' for none); '0', any other answer: while the probe is out, its success; '-1', windows a
-- client posted (SPEC §10), which answer nothing. arg.sightings (JSON,
-- as the host's parser gave them) are kept for every host, the newest per window, at most
-- MAX_WINDOWS names (windowsTrim).
function ops.windowNote()
  if arg.sightings ~= '' then
    for _, sighting in ipairs(cjson.decode(arg.sightings)) do
      local name = sighting.name
      if type(name) == 'string' and #name <= 32 and string.match(name, '^[a-z0-9_]+$') then
        redis.call('HSET', WINDOWS, name, cjson.encode(sighting))
        redis.call('ZADD', WINDOWS_SEEN, now, name)
        changed = true
      end
    end
    windowsTrim()
    redis.call('PEXPIRE', WINDOWS, MAX_WINDOW_PAUSE)
    redis.call('PEXPIRE', WINDOWS_SEEN, MAX_WINDOW_PAUSE)
  end
  if arg.usedUp == '1' then
    windowUsedUp(arg.label, tonumber(arg.resetsAt))
  elseif arg.usedUp == '0' and wProbe then
    windowLift(true)
  end
  drive()
  return {done = true}
end
`;
