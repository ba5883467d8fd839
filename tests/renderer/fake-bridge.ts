// A Bridge the test drives by hand: it records every invoke, answers from a table, and pushes
// whatever snapshot or connection state the test hands it.
import type { Bridge, ConnectionState, InvokeArgs, InvokeChannel, InvokeResult, PushMap, PushTopic, Result } from "../../shared/contract";

type Answer<C extends InvokeChannel> = (...request: InvokeArgs<C>) => Result<InvokeResult<C>>;

export interface FakeBridge extends Bridge {
  calls: { channel: InvokeChannel; request: unknown }[];
  answer<C extends InvokeChannel>(channel: C, answer: Answer<C>): void;
  push<T extends PushTopic>(topic: T, snapshot: PushMap[T]): void;
  connect(state: ConnectionState): void;
  callsTo(channel: InvokeChannel): unknown[];
}

export function createFakeBridge(): FakeBridge {
  const answers = new Map<InvokeChannel, (request: unknown) => Result<unknown>>();
  const listeners = new Map<PushTopic, Set<(snapshot: never) => void>>();
  const connection = new Set<(state: ConnectionState) => void>();
  const calls: { channel: InvokeChannel; request: unknown }[] = [];

  return {
    calls,
    async invoke<C extends InvokeChannel>(channel: C, ...request: InvokeArgs<C>) {
      calls.push({ channel, request: request[0] });
      const answer = answers.get(channel);
      const result = answer ? answer(request[0]) : { ok: false as const, code: "unavailable" as const, message: `no answer for ${channel}` };
      return result as Result<InvokeResult<C>>;
    },
    subscribe<T extends PushTopic>(topic: T, listener: (snapshot: PushMap[T]) => void) {
      const set = listeners.get(topic) ?? new Set();
      listeners.set(topic, set);
      set.add(listener as (snapshot: never) => void);
      return () => set.delete(listener as (snapshot: never) => void);
    },
    onConnection(listener) {
      connection.add(listener);
      return () => connection.delete(listener);
    },
    answer(channel, answer) {
      answers.set(channel, answer as (request: unknown) => Result<unknown>);
    },
    push(topic, snapshot) {
      for (const listener of listeners.get(topic) ?? []) listener(snapshot as never);
    },
    connect(state) {
      for (const listener of connection) listener(state);
    },
    callsTo: (channel) => calls.filter((call) => call.channel === channel).map((call) => call.request),
  };
}

export { statusEntry as entry } from "../support/status-entry";
