// The `headroom` command's own exit statuses (sysexits.h, as SPEC §6 names them). `run`
// otherwise exits with its child's status, so these stay clear of the usual 0–2 and 126–165.
export const EXIT = {
  ok: 0,
  usage: 64,
  /** SPEC §10: an agent's configuration file that does not parse. */
  dataError: 65,
  unavailable: 69,
  software: 70,
  /** SPEC §10: an agent's configuration file that cannot be written. */
  cantCreate: 73,
  queueTimeout: 75,
  tokenRefused: 77,
} as const;

/** Bad arguments: the message says what is allowed; the exit status is 64. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}
