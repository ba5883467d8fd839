// The provider's own rate-limit readings (SPEC §6 `upstreamLimits`), as meters, when known.
import type { ConcurrencyStatusEntry } from "../../shared/types";
import { formatRemaining } from "../../shared/duration";

interface Bucket {
  limit?: number;
  remaining?: number;
  resetAt?: number;
}
/** The fields SPEC §1 adds for the proxy's readings; read structurally so either shape compiles. */
type Readings = { requests?: Bucket; tokens?: Bucket; inputTokens?: Bucket; outputTokens?: Bucket; seenAt: number };
type WithReadings = ConcurrencyStatusEntry & { upstreamLimits?: Readings };

const NAMES = [
  ["requests", "Requests"],
  ["tokens", "Tokens"],
  ["inputTokens", "Input tokens"],
  ["outputTokens", "Output tokens"],
] as const;

export function UpstreamMeters({ entry }: { entry: ConcurrencyStatusEntry }) {
  const readings = (entry as WithReadings).upstreamLimits;
  if (!readings) return null;
  const shown = NAMES.flatMap(([key, name]) => {
    const bucket = readings[key];
    return bucket?.limit !== undefined && bucket.remaining !== undefined ? [{ key, name, limit: bucket.limit, bucket }] : [];
  });
  if (shown.length === 0) return null;
  return (
    <div className="meters" aria-label={`Upstream limits for ${entry.providerId}`} role="group">
      {shown.map(({ key, name, limit, bucket }) => (
        <div key={key} className="meter-row">
          <span className="field-label">{name} left</span>
          <meter min={0} max={limit} value={bucket.remaining} aria-label={`${name} left for ${entry.providerId}`} />
          <span className="meter-value">
            {bucket.remaining} / {limit}
            {bucket.resetAt !== undefined && <span className="muted"> · resets in {formatRemaining(bucket.resetAt - readings.seenAt)}</span>}
          </span>
        </div>
      ))}
    </div>
  );
}
