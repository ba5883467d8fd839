// Draws build/icon.png (512 × 512: electron-builder makes every platform's icon from it, and
// the tray scales it down): a rounded square with three bars under a ceiling line, i.e.
// "room left under a limit". Run it again after changing the drawing: `node build/make-icon.mjs`.
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const SIZE = 512;
const BACKGROUND = [31, 111, 235];
const INK = [255, 255, 255];
const CEILING = [255, 200, 61];

function inRoundedSquare(x, y, inset, radius) {
  const lo = inset;
  const hi = SIZE - 1 - inset;
  if (x < lo || x > hi || y < lo || y > hi) return false;
  const cx = Math.min(Math.max(x, lo + radius), hi - radius);
  const cy = Math.min(Math.max(y, lo + radius), hi - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

const bars = [
  { left: 120, right: 196, top: 300 },
  { left: 218, right: 294, top: 230 },
  { left: 316, right: 392, top: 170 },
];

function pixel(x, y) {
  if (!inRoundedSquare(x, y, 16, 96)) return [0, 0, 0, 0];
  if (y >= 112 && y < 132 && x >= 100 && x <= 412) return [...CEILING, 255];
  for (const bar of bars) {
    if (x >= bar.left && x <= bar.right && y >= bar.top && y <= 400) return [...INK, 255];
  }
  return [...BACKGROUND, 255];
}

const raw = Buffer.alloc((SIZE * 4 + 1) * SIZE);
for (let y = 0; y < SIZE; y++) {
  const row = y * (SIZE * 4 + 1);
  raw[row] = 0; // no filter
  for (let x = 0; x < SIZE; x++) raw.set(pixel(x, y), row + 1 + x * 4);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bits per channel
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk("IHDR", header),
  chunk("IDAT", deflateSync(raw, { level: 9 })),
  chunk("IEND", Buffer.alloc(0)),
]);
writeFileSync(new URL("./icon.png", import.meta.url), png);
console.log(`build/icon.png: ${SIZE}x${SIZE}, ${png.length} bytes`);
