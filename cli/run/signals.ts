// The signals `headroom run` answers for its whole life, so no way out skips the release.
import { constants } from "node:os";

const TRAPPED: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** The shell's convention for "ended by signal n". */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + constants.signals[signal];
}

/** Routes the trapped signals to `handler` until the returned function is called. */
export function trapSignals(handler: (signal: NodeJS.Signals) => void): () => void {
  for (const signal of TRAPPED) process.on(signal, handler);
  return () => {
    for (const signal of TRAPPED) process.off(signal, handler);
  };
}
