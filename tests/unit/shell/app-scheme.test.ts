// The window's app:// scheme (issue 17, Electron checklist): what protocol.handle answers, on
// real files in a temp folder with real symlinks, as Electron would call it with a Request.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { APP_SCHEME_PRIVILEGES, APP_URL, answerAppRequest, resolveAppFile } from "../../../electron/shell/app-scheme";

const SECRET = "the user's private key";
let base: string;
let root: string;

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "headroom-app-scheme-"));
  root = path.join(base, "renderer");
  const write = (relative: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(base, relative)), { recursive: true });
    fs.writeFileSync(path.join(base, relative), text);
  };
  fs.mkdirSync(path.join(root, "assets", "empty-dir"), { recursive: true });
  fs.copyFileSync("renderer/index.html", path.join(root, "index.html"));
  write("renderer/assets/index-abc.js", "export const answer = 42;\n");
  write("renderer/assets/index-abc.css", "body { margin: 0 }\n");
  write("renderer/icon.svg", "<svg xmlns='http://www.w3.org/2000/svg'/>");
  write("renderer/My File.txt", "spaces are fine");
  write("renderer/blob.xyz", "unknown kind");
  // Outside the folder app:// serves: a sibling file, and a sibling folder whose name starts
  // like the served one's (a prefix check without a separator would let it through).
  write("secret.txt", SECRET);
  write("renderer-evil/x.js", SECRET);
  fs.symlinkSync(path.join(base, "secret.txt"), path.join(root, "leak.txt"));
  fs.symlinkSync("../secret.txt", path.join(root, "relative-leak.txt"));
  fs.symlinkSync(base, path.join(root, "out"), "dir");
  fs.symlinkSync(path.join(base, "renderer-evil", "x.js"), path.join(root, "prefix.js"));
  fs.symlinkSync("assets/index-abc.js", path.join(root, "alias.js"));
  fs.symlinkSync(root, path.join(base, "renderer-link"), "dir");
});

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const get = (url: string, method = "GET") => answerAppRequest(root, new Request(url, { method }));

describe("what app://headroom serves", () => {
  test("the window's page, with the CSP in its head unchanged: scripts, styles and fetches only from app://headroom", async () => {
    const response = await get(APP_URL);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await response.text();
    expect(html).toBe(fs.readFileSync("renderer/index.html", "utf8"));
    const csp = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
  });

  test("each asset with the type the page needs (a module script must be JavaScript under nosniff)", async () => {
    const cases: [string, string, string][] = [
      ["assets/index-abc.js", "text/javascript; charset=utf-8", "export const answer = 42;\n"],
      ["assets/index-abc.css", "text/css; charset=utf-8", "body { margin: 0 }\n"],
      ["icon.svg", "image/svg+xml", "<svg xmlns='http://www.w3.org/2000/svg'/>"],
      ["My%20File.txt", "application/octet-stream", "spaces are fine"],
      ["blob.xyz", "application/octet-stream", "unknown kind"],
    ];
    for (const [name, type, body] of cases) {
      const response = await get(`app://headroom/${name}`);
      expect(response.status, name).toBe(200);
      expect(response.headers.get("content-type"), name).toBe(type);
      expect(await response.text(), name).toBe(body);
    }
  });

  test("a fragment or a query does not change which file is read", async () => {
    for (const url of [`${APP_URL}#/routes`, `${APP_URL}?v=2`]) {
      expect((await get(url)).status, url).toBe(200);
    }
  });

  test("a symlink that stays inside the folder is followed; the folder itself may be reached through one", async () => {
    expect(await (await get("app://headroom/alias.js")).text()).toBe("export const answer = 42;\n");
    const viaLink = await answerAppRequest(path.join(base, "renderer-link"), new Request(APP_URL));
    expect(viaLink.status).toBe(200);
  });

  test("HEAD answers the headers without a body; other methods are 405", async () => {
    const head = await get(APP_URL, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await head.text()).toBe("");
    for (const method of ["POST", "PUT", "DELETE"]) {
      const response = await get(APP_URL, method);
      expect(response.status, method).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD");
    }
  });
});

describe("what app:// refuses with a 404", () => {
  test("the secret is really there for a naive join of the decoded path to find", () => {
    expect(fs.readFileSync(path.join(root, decodeURIComponent("..%2Fsecret.txt")), "utf8")).toBe(SECRET);
    expect(fs.readFileSync(path.join(root, "leak.txt"), "utf8")).toBe(SECRET);
  });

  const hostile = [
    // climbing out, plainly and encoded (the URL parser resolves these; what is left must not escape)
    "app://headroom/../secret.txt",
    "app://headroom/%2e%2e/secret.txt",
    "app://headroom/%2E%2e/%2e%2E/secret.txt",
    "app://headroom/.%2e/secret.txt",
    "app://headroom/assets/../../secret.txt",
    // separators smuggled inside one segment
    "app://headroom/..%2Fsecret.txt",
    "app://headroom/..%2fsecret.txt",
    "app://headroom/assets/..%2F..%2Fsecret.txt",
    "app://headroom/%2e%2e%2fsecret.txt",
    "app://headroom/..%5Csecret.txt",
    "app://headroom/..%5C..%5Csecret.txt",
    "app://headroom/assets%2Findex-abc.js",
    // absolute paths
    "app://headroom//etc/passwd",
    "app://headroom/%2Fetc%2Fpasswd",
    "app://headroom/C:%5CWindows%5Cwin.ini",
    "app://headroom/C:/Windows/win.ini",
    "app://headroom/index.html::$DATA",
    // NUL, a malformed escape, a double encoding that names no file
    "app://headroom/secret.txt%00.js",
    "app://headroom/index.html%00",
    "app://headroom/%E0%A4%A",
    "app://headroom/%252e%252e/secret.txt",
    // symlinks that leave the folder
    "app://headroom/leak.txt",
    "app://headroom/relative-leak.txt",
    "app://headroom/out/secret.txt",
    "app://headroom/prefix.js",
    // folders and missing files
    "app://headroom/",
    "app://headroom",
    "app://headroom/assets",
    "app://headroom/assets/",
    "app://headroom/assets/empty-dir",
    "app://headroom/missing.js",
    // another host, port, user or scheme
    "app://other/index.html",
    "app://headroom.evil/index.html",
    "app://headroom:8080/index.html",
    "https://headroom/index.html",
  ];

  test.each(hostile)("%s", async (url) => {
    const response = await get(url);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await response.text()).toBe("Not found");
  });

  test("the absolute path of a file, encoded into the URL, is refused", async () => {
    const absolute = path.join(base, "secret.txt");
    expect((await get(`app://headroom/${encodeURIComponent(absolute)}`)).status).toBe(404);
    expect(await resolveAppFile(root, pathToFileURL(absolute).href)).toBeUndefined();
  });

  test("a URL with credentials (no Request can carry one) names no file either", async () => {
    expect(await resolveAppFile(root, "app://me:pw@headroom/index.html")).toBeUndefined();
    expect(await resolveAppFile(root, "app://me@headroom/index.html")).toBeUndefined();
  });

  test("a folder that does not exist serves nothing, not an error", async () => {
    expect((await answerAppRequest(path.join(base, "gone"), new Request(APP_URL))).status).toBe(404);
  });
});

test("the scheme is standard, secure and fetchable, and neither bypasses the CSP nor opens itself to other origins", () => {
  expect(APP_SCHEME_PRIVILEGES).toEqual({ scheme: "app", privileges: { standard: true, secure: true, supportFetchAPI: true } });
  expect(APP_URL).toBe("app://headroom/index.html");
});
