// Allowed ranges and defaults, shared by validators, settings and the window's controls.
export const LIMITS = {
  limit: { min: 1, max: 10_000 },
  cooldownMs: { min: 0, max: 600_000, default: 350, sliderMax: 5_000, sliderStep: 10 },
  threshold: { min: 1, max: 1_000, default: 1 },
  breakerCooldownMs: { min: 0, max: 3_600_000, default: 15_000 },
  pollMs: { min: 250, max: 3_600_000, default: 5_000 },
  timeoutMs: { max: 86_400_000 },
  retryAfterMs: { max: 86_400_000 },
  leaseTtlMs: { min: 5_000, max: 3_600_000, default: 120_000 },
  /** SPEC §3 "Scale": how many providers a host keeps. */
  providers: { max: 1_000 },
  seriesMinutes: { min: 1, max: 60, default: 5 },
} as const;

/** SPEC §5 default ports on 127.0.0.1: the API and window, and the gating proxy. */
export const DEFAULT_PORTS = { api: 7411, proxy: 7412 } as const;
