import { DEFAULT_PORTS } from "../../shared/limits";
import { HostStartError } from "./host-start-error";

export const DEFAULT_API_PORT = DEFAULT_PORTS.api;
export const DEFAULT_PROXY_PORT = DEFAULT_PORTS.proxy;

/** A port from a flag or the environment, else the default; 0 lets the system pick. */
export function parsePort(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new HostStartError(`${name} must be an integer from 0 to 65535 (got ${JSON.stringify(raw)})`);
  }
  return port;
}
