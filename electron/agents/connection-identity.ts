// The process behind a proxy connection, looked up once per connection (SPEC §9). A request
// waits for it at most `budgetMs`; past that it goes on without (named by its user-agent) and
// the lookup finishes in the background for the connection's next request.
import type { Socket } from "node:net";
import type { LocalProcess } from "./agent-identity";
import { processOfConnection } from "./process-of-socket";

const LOOKUP_BUDGET_MS = 50;

type Lookup = (clientPort: number, serverPort: number) => Promise<LocalProcess | undefined>;

interface Known {
  settled: boolean;
  /** One request has waited its budget already: the next ones take what is known, at once. */
  waited: boolean;
  found: LocalProcess | undefined;
  pending: Promise<LocalProcess | undefined>;
}

export class ConnectionProcesses {
  private readonly bySocket = new WeakMap<Socket, Known>();

  constructor(
    private readonly budgetMs = LOOKUP_BUDGET_MS,
    private readonly lookup: Lookup = processOfConnection,
  ) {}

  /** Begins the lookup as the connection opens, so it runs while the request's head and body arrive. */
  begin(socket: Socket): void {
    this.known(socket);
  }

  /** What is known at once (no promise: the connection's later requests), else after the wait. */
  of(socket: Socket): LocalProcess | undefined | Promise<LocalProcess | undefined> {
    const known = this.known(socket);
    if (!known) return undefined;
    if (known.settled || known.waited) return known.found;
    known.waited = true;
    return this.waitFor(known);
  }

  private async waitFor(known: Known): Promise<LocalProcess | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, this.budgetMs, undefined);
    });
    try {
      return await Promise.race([known.pending, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private known(socket: Socket): Known | undefined {
    const known = this.bySocket.get(socket);
    if (known) return known;
    const { remotePort, localPort } = socket;
    if (remotePort === undefined || localPort === undefined) return undefined;
    const entry: Known = { settled: false, waited: false, found: undefined, pending: Promise.resolve(undefined) };
    entry.pending = this.lookup(remotePort, localPort).then((found) => {
      entry.settled = true;
      entry.found = found;
      return found;
    });
    this.bySocket.set(socket, entry);
    return entry;
  }
}
