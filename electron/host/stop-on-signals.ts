/**
 * Stops once on the first SIGINT or SIGTERM, then exits (0, or 1 if stopping failed).
 * `on` with a guard rather than `once`: under npm a Ctrl-C can arrive twice (npm and tsx both
 * relay it, and conf's exit hook re-raises it), and a second one must not kill a shutdown
 * half-way through.
 */
export function stopOnSignals(stop: (signal: NodeJS.Signals) => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    stop(signal).then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", handle);
  process.on("SIGTERM", handle);
}
