// Start-up refusals that name their cause in full, with the exit code a script can act on.

/** EX_CONFIG (sysexits.h): the data folder cannot be used as configured (SPEC §5). */
export const EXIT_DATA_DIR_UNUSABLE = 78;

/** Start-up refused for a reason the message states in full: print it, no stack. */
export class HostStartError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "HostStartError";
  }
}
