// Why a connect or disconnect refused, in words a person can act on. The connect code runs in
// the host and in the CLI, so it carries its own error; the service turns it into a
// ServiceError with the same code and the CLI into an exit status (SPEC §10).
export type ConnectErrorCode = "unknown_agent" | "config_conflict" | "config_unparsable" | "config_unwritable";

export class ConnectError extends Error {
  constructor(
    readonly code: ConnectErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ConnectError";
  }
}
