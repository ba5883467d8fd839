// The route's model from a gated body's top-level `model` (SPEC §6), whatever the body's size:
// its top-level keys are scanned and only `model`'s value decoded. Parsing a body whole made a
// string and an object tree of it per request: a 286 KB conversation, the size an agent sends
// mid-session, took 773 µs of the host's CPU that way against 149 µs scanned (bench
// body-model), and two held 31 MiB bodies took the host's RSS up by 160 MB (issue 32, item 4).
// For valid JSON it names the model JSON.parse would (the last `model`); a body that is not
// valid JSON may name one where JSON.parse named none, and the provider answers it 400 anyway.

const MAX_MODEL_LENGTH = 200;
/** A key's raw JSON longer than this is not `"model"`, however it is escaped (`"\u006d…"`). */
const MAX_KEY_BYTES = 32;
const MODEL_KEY = Buffer.from('"model"');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const isOpen = (byte: number | undefined) => byte === 0x7b || byte === 0x5b; // { [
const isClose = (byte: number | undefined) => byte === 0x7d || byte === 0x5d; // } ]
const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** The body's `model` when it is a sensible string, else "unknown". */
export function modelOf(body: Buffer): string {
  const model = scannedModel(body);
  return typeof model === "string" && model.length > 0 && model.length <= MAX_MODEL_LENGTH ? model : "unknown";
}

/** Whether the key whose raw JSON spans [at, end) says `model`: only an escaped key is decoded. */
function isModelKey(body: Buffer, at: number, end: number): boolean {
  if (end - at === MODEL_KEY.length) return body.compare(MODEL_KEY, 0, MODEL_KEY.length, at, end) === 0;
  if (end - at > MAX_KEY_BYTES) return false;
  const slash = body.indexOf(BACKSLASH, at);
  return slash !== -1 && slash < end && JSON.parse(body.toString("utf8", at, end)) === "model";
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
  if (!isOpen(body[at])) {
    while (at < body.length && body[at] !== COMMA && !isClose(body[at]) && !isSpace(body[at])) at++;
    return at;
  }
  for (let depth = 0; at < body.length; ) {
    const byte = body[at]!;
    if (byte === QUOTE) {
      at = stringEnd(body, at);
      if (at < 0) return -1;
      continue;
    }
    if (isOpen(byte)) depth++;
    else if (isClose(byte) && --depth === 0) return at + 1;
    at++;
  }
  return -1;
}

/** The value spanning [at, end): a plain string (no escape, no control character) is read as is, anything else parsed. */
function modelValue(body: Buffer, at: number, end: number): unknown {
  if (body[at] !== QUOTE) return JSON.parse(body.toString("utf8", at, end));
  for (let i = at + 1; i < end - 1; i++) if (body[i]! < 0x20 || body[i] === BACKSLASH) return JSON.parse(body.toString("utf8", at, end));
  return body.toString("utf8", at + 1, end - 1);
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
      const isModel = isModelKey(body, at, keyEnd);
      at = skipSpace(body, keyEnd);
      if (body[at] !== COLON) return undefined;
      at = skipSpace(body, at + 1);
      const end = valueEnd(body, at);
      if (end < 0) return undefined;
      // A model longer than the limit is "unknown" whatever it says: not decoded.
      if (isModel) model = end - at <= MAX_MODEL_LENGTH * 6 + 2 ? modelValue(body, at, end) : undefined;
      at = skipSpace(body, end);
      if (body[at] === COMMA) at = skipSpace(body, at + 1);
      else if (body[at] !== 0x7d) return undefined;
    }
  } catch {
    return undefined;
  }
  return undefined;
}
