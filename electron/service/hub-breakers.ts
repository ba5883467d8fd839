// The route breakers of this host's shared providers (SPEC §7), one per provider, on the Redis
// the host shares providers on: what the service's `sharedBreakerOf` answers when the host was
// started with Redis. A breaker exists from the moment its provider is shared; its calls wait
// until Redis has answered once (as a shared pool's do), and are judged on Redis's clock.
import type { Clock } from "../engine/clock";
import { SharedRouteBreaker } from "../shared-pool/shared-breaker";
import type { SharedHub } from "../shared-pool/shared-hub";

export interface HubBreakersDeps {
  hub: SharedHub;
  /** The host's own clock: Redis's is this plus the hub's measured offset. */
  clock: Clock;
  isShared: (providerId: string) => boolean;
  onError: (error: Error) => void;
}

export class HubBreakers {
  private readonly byProvider = new Map<string, SharedRouteBreaker>();
  private readonly redisTime: Clock;

  constructor(private readonly deps: HubBreakersDeps) {
    const { hub, clock } = deps;
    this.redisTime = {
      now: () => clock.now() + hub.offsetMs,
      setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
      clearTimeout: (handle) => clock.clearTimeout(handle),
    };
  }

  /** The provider's breaker while it is shared; one made local again or removed loses it. */
  readonly of = (providerId: string): SharedRouteBreaker | undefined => {
    const known = this.byProvider.get(providerId);
    if (!this.deps.isShared(providerId)) {
      known?.dispose();
      this.byProvider.delete(providerId);
      return undefined;
    }
    if (known) return known;
    const { hub, onError } = this.deps;
    const breaker = new SharedRouteBreaker({
      providerId,
      keyPrefix: hub.prefix,
      redis: {
        breaker: async (args) => (await hub.ready()).link.breaker(args),
        subscribe: async (channel, onWake) => (await hub.ready()).link.subscribe(channel, onWake),
      },
      clock: this.redisTime,
      ready: () => hub.ready(),
      onError,
    });
    this.byProvider.set(providerId, breaker);
    return breaker;
  };

  dispose(): void {
    for (const breaker of this.byProvider.values()) breaker.dispose();
    this.byProvider.clear();
  }
}
