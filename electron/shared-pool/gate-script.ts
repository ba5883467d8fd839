// The usage gate across hosts (SPEC §1 "Usage gate", §7): each host keeps its own gate
// configuration, and the host whose waiter is at the head of the queue polls it. Two Lua
// fragments spliced into pool-script.ts: GATE_LUA into lua/slots.ts before its drive() (which
// asks gatePasses before admitting a queued waiter), GATE_OPS_LUA beside the other operations
// (which drive the queue themselves).
//
// Keys under `<prefix>:<providerId>:`:
//   gated  set   hosts with a gate configured (only their waiters are gated)
//   gate   hash  ask, askId, askedAt: the poll a host was asked for, the queue held meanwhile;
//                until, untilBy: a reading at or over the limit holds the queue until then;
//                seq: ask ids
// The host asked finds "g|<askId>" in its answers, polls its gate (the engine's pollUsage:
// 2 s, then it fails open) and reports with 'gateAnswer'. A reading below the limit lets in
// limit − sessions waiters at once, a failed one every waiter a slot allows, as the local
// pool's UsageGate does (admissionsAllowed in electron/engine/usage-gate.ts). An ask left
// unanswered for GATE_STALE_MS (its host died or lost Redis) fails open too, so a vanished
// host never strands the queue; one that leaves or restarts drops its ask at once.
import { GATE_ANSWER_MS } from "../engine/usage-gate";

/** An ask this old was not answered by its host: the head goes in (fail open). A host's own answer comes within GATE_ANSWER_MS. */
export const GATE_STALE_MS = 2 * GATE_ANSWER_MS;

export const GATE_LUA = String.raw`
local GATE, GATED = P..':gate', P..':gated'
local GATE_STALE = ${GATE_STALE_MS}
-- Read on first use only: a provider nobody gates pays one SCARD per drive that meets a queue.
local gatedHosts, gateState
-- Admissions the reading being reported still allows; only lives during one 'gateAnswer'.
local gateAllowance = 0
local function gateRead()
  if gateState then return gateState end
  local g = redis.call('HMGET', GATE, 'ask', 'askId', 'askedAt', 'until', 'untilBy')
  gateState = {ask = g[1] or nil, askId = g[2] or nil, askedAt = tonumber(g[3]), untilAt = tonumber(g[4]), untilBy = g[5] or nil}
  if gateState.untilAt and now >= gateState.untilAt then
    redis.call('HDEL', GATE, 'until', 'untilBy')
    gateState.untilAt, gateState.untilBy = nil, nil
  end
  return gateState
end
-- Drops the ask pending on host h (on any host when h is nil).
local function dropAsk(h)
  local g = gateRead()
  if g.ask and (h == nil or g.ask == h) then
    redis.call('HDEL', GATE, 'ask', 'askId', 'askedAt')
    g.ask, g.askId, g.askedAt = nil, nil, nil
  end
end
-- Hosts that leave, die or start afresh: their gates no longer hold anybody.
local function gateForget(hosts)
  for _, h in ipairs(hosts) do
    if redis.call('SREM', GATED, h) == 1 then gatedHosts = nil end
    dropAsk(h)
  end
end
-- May the queue's head go in now? A head whose deadline passed goes on to be told so.
local function gatePasses(head)
  if gatedHosts == nil then gatedHosts = redis.call('SCARD', GATED) end
  if gatedHosts == 0 then return true end
  local deadline, h = string.match(redis.call('HGET', WAITERS, head), '^%-?%d+|(%-?%d+)|%-?%d+|(.*)$')
  deadline = tonumber(deadline)
  if (deadline >= 0 and deadline <= now) or redis.call('SISMEMBER', GATED, h) == 0 then return true end
  if gateAllowance > 0 then
    gateAllowance = gateAllowance - 1
    return true
  end
  local g = gateRead()
  if g.ask and now >= g.askedAt + GATE_STALE then
    dropAsk(nil)
    return true
  end
  if g.ask or g.untilAt then return false end
  local id = tostring(redis.call('HINCRBY', GATE, 'seq', 1))
  redis.call('HSET', GATE, 'ask', h, 'askId', id, 'askedAt', nowArg)
  g.ask, g.askId, g.askedAt = h, id, now
  tell(h, 'g|'..id)
  return false
end
-- The instants the gate's hold ends by itself, for the reply's wake times.
local function gateTimes(times)
  if not gateState then return end
  if gateState.untilAt then times[#times + 1] = gateState.untilAt end
  if gateState.ask then times[#times + 1] = gateState.askedAt + GATE_STALE end
end
`;

export const GATE_OPS_LUA = String.raw`
-- arg.gated: '1' this host has a gate (a new one: its earlier ask and hold go), '0' it has none.
function ops.gate()
  dropAsk(host)
  local g = gateRead()
  if g.untilBy == host then
    redis.call('HDEL', GATE, 'until', 'untilBy')
    g.untilAt, g.untilBy = nil, nil
  end
  if arg.gated == '1' then redis.call('SADD', GATED, host) else redis.call('SREM', GATED, host) end
  gatedHosts = nil
  drive()
  return {done = true}
end

-- arg.askId: the ask answered, arg.sessions: concurrent sessions ('' the poll failed or was
-- slow), arg.pollMs: this host's poll interval. An answer to an ask already dropped changes nothing.
function ops.gateAnswer()
  local g = gateRead()
  if g.ask ~= host or g.askId ~= arg.askId then return {answered = false} end
  dropAsk(host)
  local sessions = tonumber(arg.sessions)
  if sessions and sessions >= limit then
    g.untilAt, g.untilBy = now + tonumber(arg.pollMs), host
    redis.call('HSET', GATE, 'until', g.untilAt, 'untilBy', host)
    return {answered = true, admitting = false}
  end
  gateAllowance = sessions and limit - sessions or math.huge
  drive()
  gateAllowance = 0
  return {answered = true, admitting = true}
end
`;
