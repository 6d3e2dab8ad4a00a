/** Keeps the last `limit` bytes of a stream and counts what it dropped, so a flood costs no memory. */
export class StreamTail {
  private chunks: Buffer[] = [];
  private kept = 0;
  dropped = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.kept += chunk.length;
    while (this.kept > this.limit && this.chunks.length > 0) {
      const first = this.chunks[0]!;
      const excess = this.kept - this.limit;
      if (first.length <= excess) {
        this.chunks.shift();
        this.kept -= first.length;
        this.dropped += first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.kept -= excess;
        this.dropped += excess;
      }
    }
  }

  /**
   * What was kept. When the start was dropped, the first, partial line goes too: a secret cut in
   * half at the cut would otherwise survive as a fragment that redaction cannot recognise.
   */
  text(): string {
    const text = Buffer.concat(this.chunks).toString('utf8');
    if (!this.dropped) return text;
    const newline = text.indexOf('\n');
    return newline === -1 ? text.slice(Math.min(128, text.length)) : text.slice(newline + 1);
  }
}
