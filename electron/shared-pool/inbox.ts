// What the script tells a host about its own waiters and leases (pool-script.ts, `inbox:<h>`):
// an admission, a timeout, a TTL lease that expired, or an ask to poll its usage gate. Ids may hold `|` (they start with the
// host's name), so an admission's numbers are read from the end.
export type InboxEntry =
  | { kind: "admitted"; leaseId: string; admittedAt: number; enqueuedAt: number; expiresAt: number | undefined }
  | { kind: "timedOut"; waiterId: string }
  | { kind: "expired"; leaseId: string }
  | { kind: "pollGate"; askId: string };

export function readInboxEntry(entry: string): InboxEntry {
  if (entry.startsWith("t|")) return { kind: "timedOut", waiterId: entry.slice(2) };
  if (entry.startsWith("x|")) return { kind: "expired", leaseId: entry.slice(2) };
  if (entry.startsWith("g|")) return { kind: "pollGate", askId: entry.slice(2) };
  const fields = entry.split("|");
  const [admittedAt, enqueuedAt, expiresAt] = fields.slice(-3).map(Number) as [number, number, number];
  return {
    kind: "admitted",
    leaseId: fields.slice(1, -3).join("|"),
    admittedAt,
    enqueuedAt,
    expiresAt: expiresAt < 0 ? undefined : expiresAt,
  };
}
