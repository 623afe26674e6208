/**
 * Group commit for writes that arrive concurrently (tracks, sends): a write goes into the next statement or
 * transaction to start, which takes everything that arrived while the previous one ran, so a lone write is
 * not delayed and a burst shares one round of statements, one commit and one run of each statement trigger.
 * When a group fails, each of its writes is made again alone, so that a bad write fails only its own caller;
 * a write alone in its group gets its failure at once.
 */
export interface GroupCommitOptions<I, R> {
  /** Writes the items together, answering their results in order, or throws and writes none of them. */
  write: (items: I[]) => Promise<R[]>;
  /** How much of a group an item takes; a group holds at most `maxWeight` (and always at least one item). */
  weight: (item: I) => number;
  maxWeight: number;
  /**
   * Items with the same key never share a group: a later one waits for the next, so that the writes of one
   * key apply in arrival order (a statement may write a row only once).
   */
  key?: (item: I) => string;
}

interface Queued<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

export class GroupCommit<I, R> {
  private queue: Array<Queued<I, R>> = [];
  private writing = false;

  constructor(private readonly options: GroupCommitOptions<I, R>) {}

  write(item: I): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.kick();
    });
  }

  private kick(): void {
    if (this.writing) return;
    this.writing = true;
    void this.writeAll().finally(() => {
      this.writing = false;
      if (this.queue.length > 0) this.kick();
    });
  }

  private async writeAll(): Promise<void> {
    while (this.queue.length > 0) {
      const group = this.take();
      try {
        const results = await this.options.write(group.map((q) => q.item));
        group.forEach((q, i) => q.resolve(results[i]!));
      } catch (err) {
        if (group.length === 1) group[0]!.reject(err);
        else await Promise.all(group.map((q) => this.writeAlone(q)));
      }
    }
  }

  private async writeAlone({ item, resolve, reject }: Queued<I, R>): Promise<void> {
    try {
      resolve((await this.options.write([item]))[0]!);
    } catch (err) {
      reject(err);
    }
  }

  /** The next group, oldest first; items left out (a key already in the group) stay queued in order. */
  private take(): Array<Queued<I, R>> {
    const { weight, maxWeight, key } = this.options;
    const group: Array<Queued<I, R>> = [];
    const skipped: Array<Queued<I, R>> = [];
    const keys = new Set<string>();
    let taken = 0;
    let scanned = 0;
    // A full group stops the scan: a long queue is not walked again for every group.
    for (; scanned < this.queue.length; scanned++) {
      const queued = this.queue[scanned]!;
      const k = key?.(queued.item);
      if (k !== undefined && keys.has(k)) {
        skipped.push(queued);
        continue;
      }
      const w = weight(queued.item);
      if (group.length > 0 && taken + w > maxWeight) break;
      group.push(queued);
      taken += w;
      if (k !== undefined) keys.add(k);
    }
    this.queue = [...skipped, ...this.queue.slice(scanned)];
    return group;
  }
}
