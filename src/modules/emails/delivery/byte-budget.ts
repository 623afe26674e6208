/**
 * Bounds the bytes of message content a worker holds at once, so that a run of 40 MB emails is sent a few at
 * a time instead of all being loaded together. A message larger than the whole budget still goes, alone.
 */
export class ByteBudget {
  private used = 0;
  private readonly waiting: Array<{ bytes: number; go: () => void }> = [];

  constructor(private readonly capacity: number) {}

  async acquire(bytes: number): Promise<number> {
    const wanted = Math.min(bytes, this.capacity);
    if (this.waiting.length > 0 || this.used + wanted > this.capacity) {
      await new Promise<void>((go) => this.waiting.push({ bytes: wanted, go }));
    } else {
      this.used += wanted;
    }
    return wanted;
  }

  release(bytes: number): void {
    this.used -= bytes;
    while (this.waiting.length > 0 && this.used + this.waiting[0]!.bytes <= this.capacity) {
      const next = this.waiting.shift()!;
      this.used += next.bytes;
      next.go();
    }
  }
}
