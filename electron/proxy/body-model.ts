// The route's model from a gated body's top-level `model` (SPEC §6). A body of up to 1 MiB is
// parsed whole; a bigger one is scanned for its top-level keys without decoding the rest:
// parsing a 31 MiB body made a 31 MiB string and another for its content, per queued request,
// which took the host's RSS up by 160 MB with two such bodies held (issue 32, item 4).

const MAX_MODEL_LENGTH = 200;
const PARSED_WHOLE_BYTES = 1024 * 1024;
/** A key's raw JSON longer than this is not `"model"`, however it is escaped (`"\u006d…"`). */
const MAX_KEY_BYTES = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN = new Set([0x7b, 0x5b]); // { [
const CLOSE = new Set([0x7d, 0x5d]); // } ]
const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** The body's `model` when it is a sensible string, else "unknown". */
export function modelOf(body: Buffer): string {
  const model = body.length <= PARSED_WHOLE_BYTES ? parsedModel(body) : scannedModel(body);
  return typeof model === "string" && model.length > 0 && model.length <= MAX_MODEL_LENGTH ? model : "unknown";
}

function parsedModel(body: Buffer): unknown {
  try {
    const parsed: unknown = JSON.parse(body.toString("utf8"));
    return parsed !== null && typeof parsed === "object" && "model" in parsed ? (parsed as { model: unknown }).model : undefined;
  } catch {
    return undefined; // not JSON: the provider will answer 400 itself, which the proxy counts as neutral
  }
}

const skipSpace = (body: Buffer, at: number) => {
  while (isSpace(body[at])) at++;
  return at;
};

/** Just past the string whose opening quote is at `at` (memchr-fast through its content); -1 when it never closes. */
function stringEnd(body: Buffer, at: number): number {
  for (let from = at + 1; ; ) {
    const quote = body.indexOf(QUOTE, from);
    if (quote < 0) return -1;
    let slashes = 0;
    while (body[quote - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Just past the value that starts at `at`; -1 when it never ends. */
function valueEnd(body: Buffer, at: number): number {
  if (body[at] === QUOTE) return stringEnd(body, at);
  if (!OPEN.has(body[at]!)) {
    while (at < body.length && body[at] !== COMMA && !CLOSE.has(body[at]!) && !isSpace(body[at])) at++;
    return at;
  }
  for (let depth = 0; at < body.length; ) {
    const byte = body[at]!;
    if (byte === QUOTE) {
      at = stringEnd(body, at);
      if (at < 0) return -1;
      continue;
    }
    if (OPEN.has(byte)) depth++;
    else if (CLOSE.has(byte) && --depth === 0) return at + 1;
    at++;
  }
  return -1;
}

/** The top-level `model` (the last one, as JSON.parse would take), decoding only keys and that value. */
function scannedModel(body: Buffer): unknown {
  let at = skipSpace(body, 0);
  if (body[at] !== 0x7b) return undefined;
  at = skipSpace(body, at + 1);
  let model: unknown;
  try {
    while (at < body.length) {
      if (body[at] === 0x7d) return model;
      if (body[at] !== QUOTE) return undefined;
      const keyEnd = stringEnd(body, at);
      if (keyEnd < 0) return undefined;
      const isModel = keyEnd - at <= MAX_KEY_BYTES && JSON.parse(body.toString("utf8", at, keyEnd)) === "model";
      at = skipSpace(body, keyEnd);
      if (body[at] !== COLON) return undefined;
      at = skipSpace(body, at + 1);
      const end = valueEnd(body, at);
      if (end < 0) return undefined;
      // A model longer than the limit is "unknown" whatever it says: not decoded.
      if (isModel) model = end - at <= MAX_MODEL_LENGTH * 6 + 2 ? JSON.parse(body.toString("utf8", at, end)) : undefined;
      at = skipSpace(body, end);
      if (body[at] === COMMA) at = skipSpace(body, at + 1);
      else if (body[at] !== 0x7d) return undefined;
    }
  } catch {
    return undefined;
  }
  return undefined;
}
