// Who sent a proxied request (SPEC §9): the agent of the lease it rides on, its
// x-headroom-agent header, the local process behind its connection (looked up once per
// connection, within 50 ms), its user-agent, in that order.
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { homedir } from "node:os";
import { identify, type AgentIdentity } from "../agents/agent-identity";
import { ConnectionProcesses } from "../agents/connection-identity";
import type { HeadroomService } from "../service/headroom-service";
import { agentOf } from "./forward-headers";

const processes = new ConnectionProcesses();
const home = homedir();

/** Called as a proxy connection opens: its process is looked up while the request arrives. */
export function connectionOpened(socket: Socket): void {
  processes.begin(socket);
}

export async function requestAgent(service: HeadroomService, req: IncomingMessage, rideOn?: string): Promise<AgentIdentity> {
  const leaseAgent = rideOn === undefined ? undefined : service.leaseAgent(rideOn);
  const header = agentOf(req);
  const found = await processes.of(req.socket);
  const userAgent = req.headers["user-agent"];
  return identify({
    ...(leaseAgent === undefined ? {} : { leaseAgent }),
    ...(header === undefined ? {} : { header }),
    ...(found === undefined ? {} : { process: found }),
    ...(userAgent === undefined ? {} : { userAgent }),
    home,
  });
}
