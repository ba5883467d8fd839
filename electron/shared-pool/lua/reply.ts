// The end of the pool script (SPEC §7): wake the hosts told something, tell every host of a
// change, and answer this host as one JSON value (pool-protocol.ts ScriptReply). Uses the
// prelude's, slots.ts's and hosts.ts's locals; `result` is the operation's own answer.
import { CHANGE_GAP_MS } from "../change-feed";

export const REPLY_LUA = String.raw`
-- Other hosts with new answers are woken. A wake-up ('drive') or a waiter giving up
-- ('leave') also collects what other hosts left for this one, oldest first.
for h in pairs(told) do redis.call('PUBLISH', P..':wake:'..h, '1') end
-- Every host hears of a change at once, at most one message per CHANGE_GAP: a host looks again
-- a while after each message (change-feed.ts), which covers changes the gap kept quiet. A host
-- alone on the provider pays nothing for it.
if changed and now >= lastChangedAt + ${CHANGE_GAP_MS} and redis.call('ZCARD', HOSTS) > 1 then
  redis.call('HSET', STATE, 'changedAt', nowArg)
  redis.call('PUBLISH', P..':changed', host)
end
local answers = mine
if op == 'drive' or op == 'leave' then
  answers = redis.call('LRANGE', P..':inbox:'..host, 0, -1)
  if #answers > 0 then redis.call('DEL', P..':inbox:'..host) end
  for _, entry in ipairs(mine) do answers[#answers + 1] = entry end
end
local times = {}
if recycling > 0 then
  local wakeAt = redis.call('ZRANGEBYSCORE', RECYCLING, '('..now, '+inf', 'WITHSCORES')
  for i = 2, #wakeAt, 2 do times[#times + 1] = tonumber(wakeAt[i]) end
end
if pausedUntil() then times[#times + 1] = pauseEnd end
if holdUntil then times[#times + 1] = holdUntil end
if windowPausedUntil() then times[#times + 1] = wUntil end
if wProbe then times[#times + 1] = wProbeAt + PROBE end
gateTimes(times)
if expiring > 0 then times[#times + 1] = tonumber(redis.call('ZRANGE', EXPIRIES, 0, 0, 'WITHSCORES')[2]) end
return cjson.encode({
  result = result, inbox = answers, wakeAt = times, windowEvents = #windowEvents > 0 and windowEvents or nil,
  hostExpiresAt = (sweeping or op == 'acquire') and nextExpiry() or 0,
})
`;
