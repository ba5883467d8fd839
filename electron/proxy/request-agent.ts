// Who sent a proxied request (SPEC §9): the agent of the lease it rides on, its
// x-headroom-agent header, the local process behind its connection (looked up once per
// connection, within 50 ms), its user-agent, in that order.
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { homedir } from "node:os";
import { identify, type AgentIdentity, type LocalProcess } from "../agents/agent-identity";
import { ConnectionProcesses } from "../agents/connection-identity";
import type { HeadroomService } from "../service/headroom-service";
import { agentOf } from "./forward-headers";

const processes = new ConnectionProcesses();
const home = homedir();

/** Called as a proxy connection opens: its process is looked up while the request arrives. */
export function connectionOpened(socket: Socket): void {
  processes.begin(socket);
}

/** At once when the connection's process is known (every request after its first), else after the lookup. */
export function requestAgent(service: HeadroomService, req: IncomingMessage, rideOn?: string): AgentIdentity | Promise<AgentIdentity> {
  const found = processes.of(req.socket);
  if (found instanceof Promise) return found.then((process) => identityOf(service, req, rideOn, process));
  return identityOf(service, req, rideOn, found);
}

/** The connection's last identity and what it was made of: its next request asks the same, mostly. */
interface Remembered {
  leaseAgent: string | undefined;
  header: string | undefined;
  userAgent: string | undefined;
  found: LocalProcess | undefined;
  identity: AgentIdentity;
}
const lastOf = new WeakMap<Socket, Remembered>();

function identityOf(service: HeadroomService, req: IncomingMessage, rideOn: string | undefined, found: LocalProcess | undefined): AgentIdentity {
  const leaseAgent = rideOn === undefined ? undefined : service.leaseAgent(rideOn);
  const header = agentOf(req);
  const userAgent = req.headers["user-agent"];
  const last = lastOf.get(req.socket);
  if (last && last.leaseAgent === leaseAgent && last.header === header && last.userAgent === userAgent && last.found === found) return last.identity;
  const identity = identify({
    ...(leaseAgent === undefined ? {} : { leaseAgent }),
    ...(header === undefined ? {} : { header }),
    ...(found === undefined ? {} : { process: found }),
    ...(userAgent === undefined ? {} : { userAgent }),
    home,
  });
  lastOf.set(req.socket, { leaseAgent, header, userAgent, found, identity });
  return identity;
}
