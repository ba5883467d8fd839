// A host with its gating proxy on ephemeral ports, in front of the fake provider: the
// setting of every proxy, usage-gate and demo test.
import { request, type ClientRequest, type IncomingMessage } from "node:http";
import { startFakeProvider, type FakeProvider, type FakeProviderOptions } from "../../demo/fake-provider";
import type { HostOptions } from "../../electron/host/start-host";
import { removeDir, startTestHost, type TestHost } from "./test-host";

export interface ProxyHarness extends TestHost {
  fake: FakeProvider;
  proxyUrl: string;
  /** The provider's prefix on the proxy, e.g. http://127.0.0.1:5555/anthropic. */
  base: string;
  providerId: string;
  /** Stops host and fake provider and removes the data folder. */
  close(): Promise<void>;
}

export async function startProxyHarness(
  setup: { limit?: number; cooldownMs?: number; providerId?: string; fake?: Partial<FakeProviderOptions>; host?: Partial<HostOptions> } = {},
): Promise<ProxyHarness> {
  const fake = await startFakeProvider(setup.fake);
  const t = await startTestHost({ proxyPort: 0, ...setup.host });
  const providerId = setup.providerId ?? "anthropic";
  await t.client.setLimit(providerId, setup.limit ?? 2);
  await t.client.setCooldown(providerId, setup.cooldownMs ?? 0);
  await t.client.setProvider(providerId, { upstream: fake.url });
  const proxyUrl = t.host.proxyUrl!;
  return {
    ...t,
    fake,
    proxyUrl,
    base: `${proxyUrl}/${providerId}`,
    providerId,
    close: async () => {
      await t.stop();
      await fake.close();
      removeDir(t.dataDir);
    },
  };
}

export interface Opened {
  req: ClientRequest;
  /** Resolves with the response head; rejects if the connection fails first. */
  response: Promise<IncomingMessage>;
}

/** A request left open, so a test can read its stream piece by piece or hang up mid-way. */
export function openRequest(url: string, body: unknown, headers: Record<string, string> = {}): Opened {
  const text = JSON.stringify(body);
  const req = request(url, {
    method: "POST",
    headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)), ...headers },
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.on("response", resolve);
    req.on("error", reject);
  });
  req.end(text);
  return { req, response };
}

/** Opens a streamed request and resolves once `marker` has reached the client; the request stays open. */
export async function streamUntil(url: string, body: unknown, marker: string): Promise<ClientRequest> {
  const opened = openRequest(url, body);
  const response = await opened.response;
  let seen = "";
  await new Promise<void>((resolve) =>
    response.on("data", (chunk) => {
      seen += String(chunk);
      if (seen.includes(marker)) resolve();
    }),
  );
  return opened.req;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: () => unknown;
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}
