// What an agent needs to go through the gating proxy (SPEC §6).

/** Where the proxy listens when the host does not say (SPEC §5 default). */
export const DEFAULT_PROXY_URL = "http://127.0.0.1:7412";

export function baseUrlLine(providerId: string, proxyUrl: string = DEFAULT_PROXY_URL): string {
  const base = `${proxyUrl.replace(/\/+$/, "")}/${providerId}`;
  return providerId.includes("anthropic") ? `ANTHROPIC_BASE_URL=${base}` : `OPENAI_BASE_URL=${base}/v1`;
}

export const runLine = (providerId: string): string => `headroom run --provider ${providerId} -- <your agent command>`;
