import { dirname } from "node:path";
import type { ErrorCode } from "../../shared/types";
import { validOr, type Checked } from "../../shared/check";

/** A refusal every transport can render: HTTP maps the code to a status, IPC passes it as a result. */
export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

export function valid<T>(checked: Checked<T>): T {
  return validOr(checked, (message) => new ServiceError("invalid_input", message));
}

export function unknownProvider(providerId: string, known: string[]): ServiceError {
  const list = known.length > 0 ? `known providers: ${[...known].sort().join(", ")}` : "no providers are configured yet";
  return new ServiceError(
    "unknown_provider",
    `Unknown provider ${providerId} (${list}). Create it with PUT /concurrency/limits/${providerId}.`,
  );
}

export function unknownLease(leaseId: string): ServiceError {
  return new ServiceError("unknown_lease", `Lease ${leaseId} is not held: it expired, was released, or never existed.`);
}

export function shuttingDown(): ServiceError {
  return new ServiceError("unavailable", "Headroom is shutting down; try again once it restarts.");
}

export function queueTimeout(providerId: string, timeoutMs: number): ServiceError {
  return new ServiceError(
    "queue_timeout",
    `No slot of ${providerId} became free within ${timeoutMs} ms; try again later or raise its limit.`,
  );
}

export function abandoned(): ServiceError {
  return new ServiceError("unavailable", "The request was abandoned while it waited.");
}

/** The data folder cannot be written (SPEC §1): 503, naming the folder and the OS error. */
export function notSaved(settingsFile: string, osError: string, consequence: string): ServiceError {
  return new ServiceError(
    "unavailable",
    `Headroom cannot save to its data folder ${dirname(settingsFile)} (${osError}); ${consequence}. Make the folder writable (permissions, free space) and retry.`,
  );
}
