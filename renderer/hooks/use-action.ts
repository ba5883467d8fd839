import { useCallback, useState } from "react";
import type { Result } from "../../shared/contract";

/** Runs one intent for a control and keeps its error, so the message shows next to that control. */
export function useAction() {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = useCallback(async <T,>(action: Promise<Result<T>>): Promise<Result<T>> => {
    setBusy(true);
    const result = await action;
    setBusy(false);
    setError(result.ok ? undefined : result.message);
    return result;
  }, []);
  return { error, setError, busy, run };
}
