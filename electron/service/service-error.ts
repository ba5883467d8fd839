import type { ErrorCode } from "../../shared/types";
import type { Checked } from "../../shared/validate";

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
  if (!checked.ok) throw new ServiceError("invalid_input", checked.message);
  return checked.value;
}
