import { ChangeSetType, type EventSubscriber, type FlushEventArgs, type Transaction, type TransactionEventArgs } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Notifies a channel once a transaction that inserted rows of a watched entity has committed, for the
 * background loops that LISTEN to it (src/db/wake-loop.ts).
 *
 * Not from an insert trigger: PostgreSQL serialises the commits of transactions that NOTIFY (a global lock
 * held through the WAL flush), which capped writes at ~750 commits/s here against ~6,000 without. A NOTIFY
 * sent on its own after the commit writes no WAL; and bursts are coalesced, at most one per channel in
 * flight per process. Rows inserted by raw SQL are not seen by flushes: their writers call
 * `notifyAfterCommit`, or the loop's poll finds them.
 */
export class CommitNotifier implements EventSubscriber {
  private readonly pending = new WeakMap<Transaction, Set<string>>();
  private readonly senders = new Map<string, CoalescingSender>();
  private closed = false;

  /** @param channels the channel to notify, by entity class name. */
  constructor(private readonly channels: Record<string, string>) {}

  afterFlush({ em, uow }: FlushEventArgs): void {
    const channels = new Set<string>();
    for (const cs of uow.getChangeSets()) {
      const channel = cs.type === ChangeSetType.CREATE ? this.channels[cs.meta.className] : undefined;
      if (channel) channels.add(channel);
    }
    if (channels.size) this.afterCommitOf(em, channels);
  }

  /** Notifies once the transaction `em` is in commits; at once without one (its statements have committed). */
  afterCommitOf(em: FlushEventArgs['em'], channels: Set<string>): void {
    const current = em.getTransactionContext<Transaction>();
    if (!current) return this.notify(em, channels);
    const tx = outermost(current);
    const waiting = this.pending.get(tx) ?? new Set<string>();
    for (const channel of channels) waiting.add(channel);
    this.pending.set(tx, waiting);
  }

  afterTransactionCommit({ em, transaction }: TransactionEventArgs): void {
    const waiting = transaction && this.pending.get(transaction);
    if (!waiting) return;
    this.pending.delete(transaction);
    this.notify(em, waiting);
  }

  /**
   * Sends nothing more and waits for the notifications under way, so that the ORM's pool closes under none:
   * a query asked of a pool while it closes waits for a connection that never comes (and its timer holds the
   * process a minute). Nothing is lost: the listeners' polls find what a dropped notification would have
   * announced.
   */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.senders.values()].map((sender) => sender.close()));
  }

  private notify(em: FlushEventArgs['em'], channels: Set<string>): void {
    if (this.closed) return;
    for (const channel of channels) {
      let sender = this.senders.get(channel);
      if (!sender) {
        const connection = (em as EntityManager).getConnection();
        sender = new CoalescingSender(() => connection.execute('select pg_notify(?, ?)', [channel, '']));
        this.senders.set(channel, sender);
      }
      sender.signal();
    }
  }
}

/**
 * Commit hooks run for the outermost transaction only (releasing a savepoint commits nothing). The MikroORM
 * knex driver links a nested transaction to its parent under this symbol; should that change, work written
 * in nested transactions waits for the poll.
 */
function outermost(tx: Transaction): Transaction {
  let current = tx as unknown as Record<symbol, unknown>;
  for (;;) {
    const link = Object.getOwnPropertySymbols(current).find((s) => s.description === 'parentTransaction');
    if (!link) return current as unknown as Transaction;
    current = current[link] as Record<symbol, unknown>;
  }
}

/** For rows inserted by raw SQL, which flushes do not show: notifies `channel` once `em`'s work has committed. */
export function notifyAfterCommit(em: EntityManager, channel: string): void {
  for (const subscriber of em.getEventManager().getSubscribers()) {
    if (subscriber instanceof CommitNotifier) subscriber.afterCommitOf(em, new Set([channel]));
  }
}

/**
 * Under load a commit happens every fraction of a millisecond; one notification per 20 ms wakes the listeners
 * just as well (a first signal is sent at once, so a quiet system is woken without delay). Measured on
 * /v1/send at ~80 requests/s on a loaded machine: 0.25 NOTIFY per request at 5 ms, 0.17 at 20 ms; the
 * bound is 50 per second, so the share falls as the rate rises.
 */
const MIN_INTERVAL_MS = 20;

/**
 * Runs `send` on signal; signals that arrive while it runs, or within MIN_INTERVAL_MS after, make it run
 * once more, not once each.
 */
class CoalescingSender {
  private draining: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(private readonly send: () => Promise<unknown>) {}

  signal(): void {
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain();
  }

  /** Sends no more; resolves once the send under way, if any, has ended. */
  async close(): Promise<void> {
    this.closed = true;
    await this.draining;
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      // A lost notification only delays the work until the listener's poll.
      await this.send().catch(() => undefined);
      if (this.closed) break;
      await new Promise((r) => setTimeout(r, MIN_INTERVAL_MS));
    } while (this.again && !this.closed);
    this.draining = null;
  }
}
