// Whether this host reaches Redis (SPEC §7), beside the connection in the top bar; nothing on
// a host without Redis configured. The error, which can be long, shows on hover and focus.
import { useHeadroom } from "../app-context";
import { Explained } from "./Explained";

export function RedisStatus() {
  const connected = useHeadroom((state) => state.redis?.connected);
  const error = useHeadroom((state) => state.redis?.error);
  if (connected === undefined) return null;
  return (
    <p role="status" className={connected ? "redis redis-up" : "redis redis-down"}>
      {connected ? (
        "Redis connected"
      ) : (
        <Explained term="Redis unreachable" explanation={`${error ?? "Redis does not answer."} Shared providers admit nobody until it answers.`} />
      )}
    </p>
  );
}
