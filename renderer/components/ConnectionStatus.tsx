import { useHeadroom } from "../app-context";

const MESSAGES = {
  connecting: "Connecting to Headroom…",
  reconnecting: "Reconnecting to Headroom… The host stopped or restarted; this window picks it up again by itself.",
  unauthorized:
    "Headroom refused this window's token. Open the address `npm run serve` printed (it ends in #token=…); the token is in api-token in the data folder, or HEADROOM_TOKEN.",
} as const;

export function ConnectionStatus() {
  const connection = useHeadroom((state) => state.connection);
  if (connection === "live") {
    return (
      <span className="live" role="status">
        Live
      </span>
    );
  }
  return (
    <p role="status" className={`connection connection-${connection}`}>
      {MESSAGES[connection]}
    </p>
  );
}
