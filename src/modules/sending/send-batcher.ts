import type { Orm } from '../../db/orm';
import { writeSends, type PendingSend, type SendingDeps, type WrittenSend } from './write';

/**
 * At most this many emails in one group. Measured (docs/contributors/sending.md): the CPU per email falls
 * little past a few dozen, and a larger group only holds its requests longer.
 */
const MAX_EMAILS = 50;

interface Queued {
  pending: PendingSend;
  resolve: (written: WrittenSend) => void;
  reject: (err: unknown) => void;
}

/**
 * Records concurrent /v1/send requests with group commit, as TrackBatcher does tracks: a send goes into the
 * next transaction to start, which takes everything that arrived while the previous one ran, so a lone send
 * is not delayed and a burst shares one transaction, its statements, one commit and one run of each statement
 * trigger. When a group fails (a send that does not render, a cap one project passes, a database error), each
 * of its sends is recorded again in a transaction of its own, so that a failure fails only its own request;
 * a send alone in its group answers its own failure at once.
 */
export class SendBatcher {
  private queue: Queued[] = [];
  private writing = false;

  constructor(
    private readonly orm: Orm,
    private readonly deps: SendingDeps,
  ) {}

  send(pending: PendingSend): Promise<WrittenSend> {
    return new Promise((resolve, reject) => {
      this.queue.push({ pending, resolve, reject });
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
        const written = await this.write(group.map((q) => q.pending));
        group.forEach((q, i) => q.resolve(written[i]!));
      } catch (err) {
        if (group.length === 1) group[0]!.reject(err);
        else await Promise.all(group.map((q) => this.writeAlone(q)));
      }
    }
  }

  private async writeAlone({ pending, resolve, reject }: Queued): Promise<void> {
    try {
      resolve((await this.write([pending]))[0]!);
    } catch (err) {
      reject(err);
    }
  }

  private write(pending: PendingSend[]): Promise<WrittenSend[]> {
    return this.orm.em.fork().transactional((tx) => writeSends(tx, this.deps, pending));
  }

  /** The queued sends, oldest first, up to MAX_EMAILS emails (at least one send). */
  private take(): Queued[] {
    let emails = 0;
    let count = 0;
    while (count < this.queue.length) {
      emails += this.queue[count]!.pending.send.recipients.length;
      if (count > 0 && emails > MAX_EMAILS) break;
      count++;
    }
    return this.queue.splice(0, count);
  }
}
