// One path, two spellings (SPEC §6 "Paths"). Gating is decided on a canonical form, so no
// spelling of a generation endpoint (`/v1//messages`, `/v1/%6Dessages`, `/V1/messages/`)
// slips past the gate; the upstream gets the path as sent, only with repeated slashes
// collapsed and dot segments resolved, so its own case and escapes reach it unchanged.

/** Escapes that could make the upstream see a different path than we gated on. */
const FORBIDDEN_ESCAPE = /%(2f|5c|00)/i;
const UNRESERVED_ESCAPE = /%([0-9a-f]{2})/gi;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

export type NormalisedPath =
  | {
      ok: true;
      /** Segments as sent (escapes kept), dot segments resolved, empty segments dropped. */
      segments: string[];
      /** The same segments decoded (unreserved escapes only) and lower-cased, for gating. */
      canonical: string[];
      trailingSlash: boolean;
    }
  | { ok: false; message: string };

function decodeUnreserved(segment: string): string {
  return segment.replace(UNRESERVED_ESCAPE, (escape, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escape;
  });
}

/**
 * Resolves a raw request path (without its query). `prefixLength` segments (the provider id,
 * and a lease scope) may not be climbed out of: `..` past them is refused, as it would reach
 * another provider's upstream path or the upstream's root.
 */
export function normalisePath(rawPath: string, prefixLength: (segments: string[]) => number): NormalisedPath {
  if (FORBIDDEN_ESCAPE.test(rawPath)) {
    return { ok: false, message: "the path holds an escaped slash, backslash or NUL (%2F, %5C, %00), which the proxy refuses." };
  }
  const raw = rawPath.split("/").filter((segment) => segment !== "");
  const prefix = Math.min(prefixLength(raw), raw.length);
  const segments = raw.slice(0, prefix);
  const canonical = segments.map((segment) => decodeUnreserved(segment).toLowerCase());
  if (canonical.some((segment) => segment === "." || segment === "..")) {
    return { ok: false, message: "the path starts with a dot segment where a provider id belongs." };
  }
  const floor = segments.length;
  for (const segment of raw.slice(prefix)) {
    const decoded = decodeUnreserved(segment);
    if (decoded === ".") continue;
    if (decoded === "..") {
      if (segments.length === floor) return { ok: false, message: "the path climbs out of its provider's prefix with `..`." };
      segments.pop();
      canonical.pop();
      continue;
    }
    segments.push(segment);
    canonical.push(decoded.toLowerCase());
  }
  const last = decodeUnreserved(raw[raw.length - 1] ?? "");
  const trailingSlash = rawPath.endsWith("/") || last === "." || last === "..";
  return { ok: true, segments, canonical, trailingSlash };
}
