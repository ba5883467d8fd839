// The window's files are served twice, over http to browsers (`serve`) and over app:// to the
// Electron window, and both must say the same type: a module script sent as anything but
// JavaScript is refused by the page under `nosniff`.
import { extname } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
  ".woff2": "font/woff2",
};

export function contentTypeOf(file: string): string {
  return TYPES[extname(file).toLowerCase()] ?? "application/octet-stream";
}
