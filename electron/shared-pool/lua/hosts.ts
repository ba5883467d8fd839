// Which hosts are alive on a shared provider (SPEC §7 "Hosts"). state.upSince is when this
// provider's state was (re)created, or when hosts were heard again after an outage
// (state.heardAt: the latest drive): a host is judged dead when now − max(last seen, upSince)
// > HOST_EXPIRY_MS, so a Redis that lost its data waits for hosts to come back before freeing
// anything of theirs. Uses the prelude's and slots.ts's locals (unhold, recycle, drive, ...).

/** A host silent this long loses its leases (released as failures) and its waiters (SPEC §7). */
export const HOST_EXPIRY_MS = 10_000;
/** How often a host says it is alive. */
export const HOST_REFRESH_MS = 2_000;
/** No drive from any host for this long (two heartbeats) means Redis was unreachable. */
const SILENCE_MS = 2 * HOST_REFRESH_MS;

export const HOSTS_LUA = String.raw`
local HOST_EXPIRY, SILENCE = ${HOST_EXPIRY_MS}, ${SILENCE_MS}

-- Hosts that are gone (silent too long, or departed) free their slots: their leases are
-- released as failures (recycling as usual) and their waiters leave the queue.
local function forgetHosts(hosts)
  local gone = {}
  changed = true
  for _, h in ipairs(hosts) do
    gone[h] = true
    redis.call('ZREM', HOSTS, h)
    redis.call('DEL', P..':inbox:'..h)
  end
  gateForget(hosts)
  local leases = redis.call('HGETALL', HELD)
  for i = 1, #leases, 2 do
    if gone[string.match(leases[i + 1], '^%-?%d+|%-?%d+|(.*)$')] then
      unhold(leases[i])
      recycle(leases[i])
      -- Released with its host, as a failure: the probe's answer is in (window-state.ts).
      probeReleased(leases[i], 'failure')
    end
  end
  unqueueHosts(gone)
  drive()
end

local function expireHosts()
  -- Every live host drives every 2 s and none drives while it cannot reach Redis: a longer
  -- silence from all of them was an outage, which every host sat out. Its time is not held
  -- against a host still reconnecting; judging starts afresh, as after a Redis that lost its data.
  local heardAt = tonumber(redis.call('HGET', STATE, 'heardAt'))
  if not heardAt or now > heardAt then redis.call('HSET', STATE, 'heardAt', nowArg) end
  if not upSince or (heardAt and now - heardAt > SILENCE) then
    upSince = now
    redis.call('HSET', STATE, 'upSince', nowArg)
    return
  end
  local cutoff = now - HOST_EXPIRY
  if upSince >= cutoff then return end
  local dead = redis.call('ZRANGEBYSCORE', HOSTS, '-inf', '('..cutoff)
  if #dead > 0 then forgetHosts(dead) end
end

-- When the longest-silent other host would expire: a host with waiters wakes then.
local function nextExpiry()
  local oldest = redis.call('ZRANGE', HOSTS, 0, 1, 'WITHSCORES')
  for i = 1, #oldest, 2 do
    if oldest[i] ~= host then return math.max(tonumber(oldest[i + 1]), upSince or now) + HOST_EXPIRY + 1 end
  end
  return -1
end

-- A host says it is alive, and looks for hosts that are not, on 'drive': its 2 s heartbeat,
-- its wake-ups and its fallback poll. Admission and release stay lean (two round trips).
local sweeping = op == 'drive' or op == 'seed'
if sweeping then
  redis.call('ZADD', HOSTS, nowArg, host)
  expireHosts()
end

-- A host leaving the provider hands back what it holds, as a host that died would.
function ops.depart()
  forgetHosts({host})
  return {done = true}
end
`;
