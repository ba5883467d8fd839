// A shared provider's settings as this host knows them (SPEC §7): changed through the script and
// read back with every status. The last entry Redis gave is what this host shows while Redis
// cannot be asked, and, with the version of its settings, what it re-seeds a Redis that lost its
// data with. The banner's dismissal stays on this host.
import { checkCooldownMs, checkLimit } from "../../shared/validate";
import { valid } from "../engine/adaptive-limit";
import type { Clock } from "../engine/clock";
import type { PoolConfig } from "../engine/pool-types";
import type { EpochLink } from "./epoch-link";
import { type SettingsFields, settingsFields } from "./pool-protocol";
import { entryConfig, type HostSide, statusEntry, unreachableEntry, type SharedStatusEntry } from "./shared-status";

export interface SharedSettingsDeps {
  providerId: string;
  link: EpochLink;
  clock: Clock;
  /** False while Redis cannot be asked: the status is the last entry it gave then. */
  answering(): boolean;
  /** This host's waiters: while Redis cannot be asked, the queue is at least that long. */
  waitingHere(): number;
  /** What else only this host knows for the status, at `now`. */
  hostSide(now: number): Omit<HostSide, "noticeDismissed">;
}

export class SharedSettings {
  private noticeDismissed = false;
  /** The last entry Redis gave. */
  private last: SharedStatusEntry | undefined;
  /** The version of the settings in `last`: a Redis that lost its data is re-seeded with the newest. */
  private version = -1;

  constructor(private readonly deps: SharedSettingsDeps) {}

  /** What joining seeds Redis with unless it holds the provider already. */
  seed(config: PoolConfig): SettingsFields {
    this.noticeDismissed = config.noticeDismissed;
    const checked = { ...config, limit: valid(checkLimit(config.limit)), cooldownMs: valid(checkCooldownMs(config.cooldownMs)) };
    // A reduction is always by one, so that is the best guess for a config that lost its origin.
    const from = config.autoReduced ? { autoReducedFrom: config.autoReducedFrom ?? config.limit + 1 } : {};
    return settingsFields({ ...checked, ...from });
  }

  async setLimit(limit: number): Promise<void> {
    await this.deps.link.call("setLimit", { limit: valid(checkLimit(limit)) });
    this.noticeDismissed = false;
    await this.status(); // the newest settings this host saw, to re-seed a Redis that lost them
  }

  async setCooldown(cooldownMs: number): Promise<void> {
    await this.deps.link.call("setCooldown", { cooldownMs: valid(checkCooldownMs(cooldownMs)) });
    await this.status();
  }

  dismissNotice(): void {
    this.noticeDismissed = true;
  }

  /** A 429 lowered the limit: the banner shows again, and the status reads the new settings. */
  reduced(): Promise<SharedStatusEntry> {
    this.noticeDismissed = false;
    return this.status();
  }

  async config(): Promise<PoolConfig> {
    return entryConfig(await this.status(), this.noticeDismissed);
  }

  /** The last entry Redis gave (what status() would answer while it is unreachable), without asking. */
  lastKnown(): SharedStatusEntry | undefined {
    if (!this.last || this.deps.answering()) return this.last;
    return unreachableEntry(this.last, this.deps.waitingHere());
  }

  async status(): Promise<SharedStatusEntry> {
    // Asking Redis would wait for it to come back.
    if (!this.deps.answering() && this.last) return unreachableEntry(this.last, this.deps.waitingHere());
    const { providerId } = this.deps;
    const now = this.deps.clock.now();
    const reply = await this.deps.link.call("status", {});
    if (!reply) throw new Error(`shared provider ${providerId} was disposed`);
    this.version = reply.version;
    this.last = statusEntry(providerId, reply, { noticeDismissed: this.noticeDismissed, ...this.deps.hostSide(now) }, now);
    return this.last;
  }

  /** The newest settings this host saw, with their version; undefined before any status. */
  reseed(): SettingsFields | undefined {
    return this.last && { ...settingsFields(this.last), version: this.version };
  }
}
