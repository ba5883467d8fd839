// The only way an IPC handler comes into being: every channel goes through `handle`, which
// drops calls from anything but our window's main frame and never lets an error cross
// (GitHub Desktop's ipc-main.ts). Electron is imported for types only, so this is unit-tested.
import type { IpcMainInvokeEvent } from "electron";
import type { InvokeChannel, Result } from "../../shared/contract";
import { INVOKE_CHANNELS } from "../../shared/operations";
import type { ChannelTable } from "./channel-table";
import { answer } from "./ipc-result";
import { isTrustedSender, type FrameLike } from "./sender-check";

/** What we need of ipcMain, generic in the event so tests can pass plain objects. */
export interface IpcRegistry<E> {
  handle(channel: string, listener: (event: E, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export type SenderEvent = Pick<IpcMainInvokeEvent, "senderFrame"> | { senderFrame: FrameLike | null };

export interface ChannelOptions<E extends SenderEvent> {
  ipcMain: IpcRegistry<E>;
  table: ChannelTable;
  /** The main window's main frame now, or undefined when there is no live window. */
  mainFrame: () => FrameLike | undefined;
  /** The document the window must be showing (app://headroom/index.html). */
  appUrl: string;
  log?: (message: string, detail?: unknown) => void;
}

const refused = {
  ok: false,
  code: "forbidden_sender",
  message: "Only Headroom's own window may call Headroom.",
} as const satisfies Result<never>;

/** Registers every channel of the contract; returns a function that removes them again. */
export function registerChannels<E extends SenderEvent>(options: ChannelOptions<E>): () => void {
  for (const channel of INVOKE_CHANNELS) handle(options, channel);
  return () => {
    for (const channel of INVOKE_CHANNELS) options.ipcMain.removeHandler(channel);
  };
}

function handle<E extends SenderEvent>(options: ChannelOptions<E>, channel: InvokeChannel): void {
  const { ipcMain, table, mainFrame, appUrl, log } = options;
  ipcMain.handle(channel, (event, request) => {
    if (!isTrustedSender(event.senderFrame, mainFrame(), appUrl)) {
      log?.(`IPC ${channel} refused: sender ${event.senderFrame?.url ?? "(gone)"} is not the main window`);
      return refused;
    }
    return answer(table, channel, request, log);
  });
}
