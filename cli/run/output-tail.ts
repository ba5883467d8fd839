// The last bytes a child wrote, kept while passing them through: enough to find the 429 an
// agent prints as it dies, without holding a long session's whole output in memory.
const TAIL_BYTES = 64 * 1024;

export class OutputTail {
  private chunks: Buffer[] = [];
  private size = 0;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - this.chunks[0]!.length >= TAIL_BYTES) this.size -= this.chunks.shift()!.length;
  }

  text(): string {
    const all = Buffer.concat(this.chunks, this.size);
    return all.subarray(Math.max(0, all.length - TAIL_BYTES)).toString("utf8");
  }
}
