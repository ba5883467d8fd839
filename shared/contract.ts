// One typed contract for the window, whichever transport carries it: Electron IPC (preload +
// ipcMain) or HTTP + SSE against `npm run serve`. The calls are the window's rows of the
// operations table (shared/operations.ts): a renamed channel breaks the build, not the app.
import type {
  ArgsOf,
  OperationOf,
  ResultOf,
  WindowChannel,
} from "./operations";
import type { AgentsView } from "./agents";
import type { ConcurrencyStatusResponse, ErrorCode, HistoryEvent, RoutesView } from "./types";

/** Every code a Result can carry: the API's, plus the window's own transport failures. */
type ResultCode = ErrorCode | "internal" | "network" | "forbidden_sender";

/** Errors cross the boundary as data with a message a person can act on, never as thrown objects. */
export type Result<T> = { ok: true; value: T } | { ok: false; code: ResultCode; message: string };

export type InvokeChannel = WindowChannel;

/** The arguments of a window call (none, or one input object) and what it answers. */
export type InvokeArgs<C extends InvokeChannel> = ArgsOf<OperationOf<C>>;
export type InvokeResult<C extends InvokeChannel> = ResultOf<OperationOf<C>>;

export type { HostInfo } from "./types";

/**
 * Pushed main → window, coalesced to at most 20 a second per topic: whole `status` and `routes`
 * snapshots on change; the whole `history` once on connect, then `history-added` with only
 * the new events (newest first), so a change costs its own size, not the history's.
 */
export interface PushMap {
  status: ConcurrencyStatusResponse;
  routes: RoutesView;
  /** SPEC §9: whole, on change, at most twice a second. */
  agents: AgentsView;
  history: { events: HistoryEvent[] };
  "history-added": { events: HistoryEvent[] };
}

export type PushTopic = keyof PushMap;

/** What a new subscriber receives first, whole. */
export type SnapshotTopic = Exclude<PushTopic, "history-added">;

export const PUSH_TOPICS = ["status", "routes", "agents", "history", "history-added"] as const satisfies readonly PushTopic[];

export const SNAPSHOT_TOPICS = ["status", "routes", "agents", "history"] as const satisfies readonly SnapshotTopic[];

/**
 * Connection state the window shows (the browser bridge reconnects after a host restart;
 * "unauthorized" is the browser's 401: a token that does not match, so retrying cannot help).
 */
export type ConnectionState = "connecting" | "live" | "reconnecting" | "unauthorized";

/** The only thing the renderer talks to; Electron's preload and the browser both implement it. */
export interface Bridge {
  invoke<C extends InvokeChannel>(channel: C, ...input: InvokeArgs<C>): Promise<Result<InvokeResult<C>>>;
  subscribe<T extends PushTopic>(topic: T, listener: (snapshot: PushMap[T]) => void): () => void;
  onConnection(listener: (state: ConnectionState) => void): () => void;
}
