// SPEC §10 for the host's own user: the presets, the agents' connections, and connect /
// disconnect through the connect code (electron/connect), which the CLI also runs for its user.
// A missing provider that is a preset is created from it, only once the edit is known to work.
import { Connector } from "../connect/connector";
import { ConnectError } from "../connect/connect-error";
import { PRESETS, presetOf, type ConnectAnswer, type ConnectionEntry, type Preset } from "../../shared/presets";
import type { Input } from "./operation-input";
import type { ProviderRegistry } from "./provider-registry";
import type { ProviderSettingsService } from "./provider-settings";
import { ServiceError } from "./service-error";

export interface AgentHome {
  env: NodeJS.ProcessEnv;
  home: string;
  cwd: string;
}

export interface ConnectionsDeps {
  dataDir: string;
  /** Whose agents are edited; the host's own user by default. */
  agentHome?: AgentHome;
  proxyUrl: () => string | undefined;
  providers: Pick<ProviderRegistry, "has" | "sorted">;
  /** A preset becomes a provider through the same settings path as `PUT /concurrency/limits`. */
  settings: Pick<ProviderSettingsService, "setLimit" | "setProviderConfig">;
}

/** The connect code's refusal, as the service's (same code, same words). */
function translated<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ConnectError) throw new ServiceError(error.code, error.message);
    throw error;
  }
}

export class ConnectionsService {
  constructor(private readonly deps: ConnectionsDeps) {}

  presets(): { presets: Preset[] } {
    return { presets: PRESETS.map((preset) => ({ ...preset, agents: [...preset.agents] })) };
  }

  private connector(): Connector {
    const proxyUrl = this.deps.proxyUrl();
    if (proxyUrl === undefined) throw new ServiceError("unavailable", "The gating proxy is off on this host, so there is nothing to point agents at; start the host with its proxy.");
    const home = this.deps.agentHome ?? { env: process.env, home: process.env.HOME ?? "", cwd: process.cwd() };
    return new Connector({ dataDir: this.deps.dataDir, ...home, proxyUrl });
  }

  connections(): { connections: ConnectionEntry[] } {
    return translated(() => ({ connections: this.connector().list() }));
  }

  connect(input: Input<"connectAgent">): ConnectAnswer {
    return translated(() => {
      const connector = this.connector();
      const { agent, dryRun, ...options } = input;
      // Planned first: a conflict or an unparsable file refuses before any provider is created.
      const provider = connector.providerFor(agent, options);
      if (!this.deps.providers.has(provider)) {
        const preset = presetOf(provider);
        if (!preset) {
          const configured = this.deps.providers.sorted().map((p) => p.id);
          const known = [...new Set([...configured, ...PRESETS.map((p) => p.id)])].sort();
          throw new ServiceError("unknown_provider", `Unknown provider ${provider}; use one of ${known.join(", ")} (presets are created when missing).`);
        }
        if (!dryRun) {
          this.deps.settings.setLimit({ providerId: preset.id, limit: preset.limit });
          this.deps.settings.setProviderConfig({ providerId: preset.id, upstream: preset.upstream });
        }
      }
      return connector.connect(agent, { ...options, provider, ...(dryRun ? { dryRun } : {}) });
    });
  }

  disconnect(input: Input<"disconnectAgent">): ConnectAnswer {
    return translated(() => this.connector().disconnect(input.agent, {}));
  }
}
