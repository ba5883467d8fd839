// SPEC §10: an agent already pointed at another base URL (a gateway) is not silently replaced.
import { ConnectError } from "./connect-error";
import { isOurs, type ConnectContext } from "./connect-types";

export function refuseOtherUrl(ctx: ConnectContext, file: string, key: string, current: unknown, replace: boolean | undefined): void {
  if (replace || current === undefined || current === null || current === "" || isOurs(ctx, current)) return;
  throw new ConnectError(
    "config_conflict",
    `${file} already points ${key} at ${String(current)}. To keep using it, make that URL the provider's upstream (headroom providers upstream <id> ${String(current)}); to point the agent at Headroom instead, pass --replace (replace: true).`,
  );
}
