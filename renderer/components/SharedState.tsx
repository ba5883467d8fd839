// What a card says about a provider shared across machines (SPEC §7): how many hosts use it
// now, and why its agents wait when the numbers do not show it (Redis unreachable).

const hostCount = (hosts: number) => `${hosts} ${hosts === 1 ? "host" : "hosts"}`;

export function SharedBadge({ hosts }: { hosts: number | undefined }) {
  return <span className="badge shared">{hosts === undefined ? "Shared" : `Shared · ${hostCount(hosts)}`}</span>;
}

/** In the card's line for what happens now, so it moves nothing; the whole reason on hover. */
export function WaitReason({ reason }: { reason: string }) {
  return (
    <p role="status" className="wait-reason" title={reason}>
      <strong>Agents wait:</strong> {reason}
    </p>
  );
}
