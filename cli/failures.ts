// Turns anything a command throws into one line a person can act on and an exit status.
import { ApiError } from "../shared/api-client";
import { ConnectError } from "../electron/connect/connect-error";
import type { Connection } from "./connection";
import { EXIT, UsageError } from "./exit-codes";

export interface Failure {
  exitCode: number;
  message: string;
}

const START_HINT =
  "Start it with `npm run serve` in the Headroom folder or open the Headroom app; if it listens elsewhere, set HEADROOM_URL.";

function apiFailure(error: ApiError, connection: Connection | undefined): Failure {
  const url = connection?.url ?? "the host";
  switch (error.code) {
    case "network":
      return { exitCode: EXIT.unavailable, message: `${error.message} Is it running? ${START_HINT}` };
    case "unavailable":
      return { exitCode: EXIT.unavailable, message: `Headroom at ${url} is not ready: ${error.message}` };
    case "unauthorized":
    case "forbidden_host":
    case "forbidden_origin":
      return {
        exitCode: EXIT.tokenRefused,
        message: `Headroom at ${url} refused the request (${error.status}): ${error.message} ${connection?.tokenSource ?? ""}`.trim(),
      };
    case "queue_timeout":
      return { exitCode: EXIT.queueTimeout, message: error.message };
    case "unknown_provider":
      // The API's hint names its endpoint; on the command line the same step is `providers add`.
      return {
        exitCode: EXIT.usage,
        message: error.message.replace(
          /Create it with PUT \/concurrency\/limits\/(\S+?)\.$/,
          "Add it with: headroom providers add $1 <limit>",
        ),
      };
    case "invalid_input":
    case "unknown_agent":
    case "config_conflict":
      return { exitCode: EXIT.usage, message: error.message };
    case "config_unparsable":
      return { exitCode: EXIT.dataError, message: error.message };
    case "config_unwritable":
      return { exitCode: EXIT.cantCreate, message: error.message };
    default:
      return { exitCode: EXIT.software, message: `Headroom at ${url} answered ${error.status} ${error.code}: ${error.message}` };
  }
}

export function describeFailure(error: unknown, connection: Connection | undefined): Failure {
  if (error instanceof UsageError) {
    const help = error.command ? `headroom ${error.command} --help` : "headroom --help";
    return { exitCode: EXIT.usage, message: `${error.message}\nRun \`${help}\` for usage.` };
  }
  if (error instanceof ApiError) return apiFailure(error, connection);
  // The connect code runs in the CLI too (SPEC §10): its refusals read like the API's.
  if (error instanceof ConnectError) return apiFailure(new ApiError(0, error.code, error.message), connection);
  return { exitCode: EXIT.software, message: `unexpected error: ${(error as Error).stack ?? String(error)}` };
}
