import type { ApiClient } from "../../../shared/api-client";

/** What an agent does when the provider answers 429: take a slot, hand it back as rate limited. */
export async function rateLimit(client: ApiClient, providerId: string, retryAfterMs?: number): Promise<void> {
  const lease = await client.acquire({ providerId, agentId: "claude-1", timeoutMs: 5_000 });
  await client.release(lease.leaseId, "rate_limited", retryAfterMs);
}
