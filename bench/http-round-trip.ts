// The client side of the HTTP bench: node:http over keep-alive sockets, the two calls an agent
// makes per lease (acquire, then release as success), timed together as one round trip.
import { Agent, request } from "node:http";

export interface LeaseServer {
  name: string;
  url: URL;
  token: string;
  agent: Agent;
}

const ACQUIRE_BODY = JSON.stringify({ providerId: "bench", agentId: "bench-client" });
const RELEASE_BODY = JSON.stringify({ outcome: "success" });

export function leaseServer(name: string, url: string, token: string, sockets: number): LeaseServer {
  return { name, url: new URL(url), token, agent: new Agent({ keepAlive: true, maxSockets: sockets }) };
}

function post(server: LeaseServer, path: string, body: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: server.url.hostname,
        port: server.url.port,
        method: "POST",
        path,
        agent: server.agent,
        headers: {
          authorization: `Bearer ${server.token}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => {
          if (res.statusCode === 200) resolve(JSON.parse(text));
          else reject(new Error(`${server.name}: POST ${path} answered ${res.statusCode}: ${text}`));
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** One acquire + release; its duration in ms. */
async function roundTrip(server: LeaseServer): Promise<number> {
  const start = performance.now();
  const admission = (await post(server, "/concurrency/acquire", ACQUIRE_BODY)) as { leaseId?: unknown };
  if (typeof admission.leaseId !== "string") throw new Error(`${server.name}: acquire answered without a leaseId`);
  await post(server, `/concurrency/leases/${encodeURIComponent(admission.leaseId)}/release`, RELEASE_BODY);
  return performance.now() - start;
}

/** `clients` loops of `each` round trips (fewer if `deadline`, a performance.now() time, passes first). */
export async function roundTrips(server: LeaseServer, clients: number, each: number, deadline: number): Promise<number[]> {
  const samples: number[] = [];
  const client = async () => {
    for (let i = 0; i < each && performance.now() < deadline; i++) samples.push(await roundTrip(server));
  };
  await Promise.all(Array.from({ length: clients }, client));
  return samples;
}
