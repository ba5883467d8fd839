// The window's own scheme, app://headroom, instead of file:// (Electron's security checklist,
// item 18: a script injected into a file:// page can load any file on the machine). It serves
// the built window's folder and nothing else. Everything about it is decided here, without
// Electron, so the hostile cases are unit-tested on real files; app-protocol.ts hands it over.
import fs from "node:fs/promises";
import path from "node:path";
import { contentTypeOf } from "../http/content-types";

export const APP_SCHEME = "app";
const APP_HOST = "headroom";

/** The only document the window may show and the only one whose main frame may call IPC. */
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * Registered before `ready`. Standard, so relative URLs, the origin and storage work as on
 * https; secure, so the page is a secure context (the clipboard needs one); fetch allowed.
 * Not bypassCSP (the page's CSP keeps applying to it), not corsEnabled (no other origin may
 * read our files), no service workers.
 */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true },
} as const;

// Names a file may not have: separators smuggled in encoded (`%2F`, `%5C`), NUL, and `:`
// (a Windows drive or an NTFS stream). Dot segments are refused separately.
const UNSAFE_NAME = /[/\\:\0]/;

/**
 * The file inside `root` that an app:// URL names, or undefined. Refused: another scheme,
 * host, port or user; an empty or dot segment (the URL parser resolves `..` and `%2e%2e`,
 * what decoding then reveals, such as `..%2F`, is refused here); an absolute path; anything
 * that is not a regular file; anything whose real path (symlinks followed) leaves `root`.
 */
export async function resolveAppFile(root: string, url: string): Promise<string | undefined> {
  const names = fileNames(url);
  if (!names) return undefined;
  const base = path.resolve(root);
  const wanted = path.join(base, ...names);
  if (!isInside(base, wanted)) return undefined;
  try {
    const [realBase, real] = await Promise.all([fs.realpath(base), fs.realpath(wanted)]);
    if (!isInside(realBase, real)) return undefined;
    return (await fs.stat(real)).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

const TEXT = { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" };

/** protocol.handle's answer: the file with its type, 404 for everything resolveAppFile refuses. */
export async function answerAppRequest(root: string, request: Request): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response("Method not allowed", { status: 405, headers: { allow: "GET, HEAD", ...TEXT } });
  }
  const file = await resolveAppFile(root, request.url);
  const body = file === undefined ? undefined : await fs.readFile(file).catch(() => undefined);
  if (file === undefined || body === undefined) return new Response("Not found", { status: 404, headers: TEXT });
  return new Response(request.method === "HEAD" ? null : body, {
    status: 200,
    headers: { "content-type": contentTypeOf(file), "x-content-type-options": "nosniff" },
  });
}

/** The decoded path segments of an app://headroom URL, or undefined when any is unsafe. */
function fileNames(url: string): string[] | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST || parsed.username || parsed.password) return undefined;
  const names: string[] = [];
  for (const segment of parsed.pathname.split("/").slice(1)) {
    const name = decoded(segment);
    if (!name || name === "." || name === ".." || UNSAFE_NAME.test(name)) return undefined;
    names.push(name);
  }
  return names;
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined; // a malformed escape such as `%E0%A4%A`
  }
}

function isInside(base: string, candidate: string): boolean {
  const relative = path.relative(base, candidate);
  return relative !== "" && relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
