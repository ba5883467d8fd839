// Heap figures only mean something right after a full collection. The runner starts every
// bench file under --expose-gc, so `gc` is there; a bench started another way says so loudly.

export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("gc is not exposed: run bench files through `npm run bench` (it adds --expose-gc)");
  // Twice: the first pass can leave objects whose finalizers free more on the second.
  gc();
  gc();
}

/** Live heap bytes after a full collection. */
export function settledHeapBytes(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}
