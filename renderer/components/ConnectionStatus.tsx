import { useHeadroom } from "../app-context";

const MESSAGES = {
  live: "Live",
  connecting: "Connecting to Headroom…",
  reconnecting: "Reconnecting… the host stopped or restarted. The numbers below are from before; controls come back when it answers.",
} as const;

/** The connection, always in view in the top bar. */
export function ConnectionStatus() {
  const connection = useHeadroom((state) => state.connection);
  if (connection === "unauthorized") return null;
  return (
    <p role="status" className={`connection connection-${connection}`}>
      {MESSAGES[connection]}
    </p>
  );
}
