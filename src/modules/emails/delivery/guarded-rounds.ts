import { Client, type QueryResult } from 'pg';
import type { Logger } from '../../../logger';

/** Rounds under way at once, each on a connection of its own. */
const ROUNDS = 1;

interface Waiting {
  id: string;
  leaseId: string;
  write: () => void;
  resolve: (allowed: boolean) => void;
  reject: (err: unknown) => void;
}

/**
 * Writes to SMTP connections that may happen only while the database says the email is still this worker's
 * to send, decided by row locks rather than by a read that could be stale by the time the bytes leave. A
 * round takes the writes waiting, and on a PostgreSQL connection of its own:
 *
 * 1. opens a transaction and runs the guard: one statement that locks the rows of the emails the worker may
 *    still send (its lease, still PENDING) and returns their ids;
 * 2. then, in one synchronous run of the event loop, makes the writes of those emails and sends the COMMIT.
 *
 * Whoever takes those rows' locks in a conflicting mode (a cancel deleting the emails, another worker's
 * claim) waits for that COMMIT, by when the writes have left; a guard that waits for such a holder instead
 * finds the rows as it left them. Guards lock in id order, as every statement that waits for these rows does
 * (the withdrawal, lease renewals, retry and failure marks), so that two of them never deadlock. The
 * subclasses say which write and which lock (hand-over.ts, gate.ts).
 */
export abstract class GuardedRounds {
  private queue: Waiting[] = [];
  private readonly idle: Client[] = [];
  private readonly rounds = new Set<Promise<void>>();

  protected constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
    /** For logs: what the rounds commit. */
    private readonly what: string,
    /**
     * The guard: over the waiting emails' ids ($1) and leases ($2), both uuid[], returns the ids allowed.
     * Prepared once per connection (see connect), so it must reach email_queue through its primary key
     * (`"email_id" = any($1)`) whatever the statistics say.
     */
    private readonly guard: string,
  ) {}

  /**
   * Resolves true once `write` ran under the guard, false when the email is no longer this worker's to send
   * (`write` did not run); rejects when the database could not be asked (`write` did not run either).
   */
  pass(id: string, leaseId: string, write: () => void): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id, leaseId, write, resolve, reject });
      this.kick();
    });
  }

  /** Lets the rounds under way finish, then closes the connections. */
  async close(): Promise<void> {
    await Promise.all(this.rounds);
    await Promise.all(this.idle.splice(0).map((client) => client.end().catch(() => undefined)));
  }

  private kick(): void {
    if (this.rounds.size >= ROUNDS || this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    const round: Promise<void> = this.round(batch).finally(() => {
      this.rounds.delete(round);
      this.kick();
    });
    this.rounds.add(round);
  }

  private async round(batch: Waiting[]): Promise<void> {
    let client: Client | undefined;
    let allowed: Set<string>;
    try {
      client = this.idle.pop() ?? (await this.connect());
      allowed = await this.lock(client, batch);
    } catch (err) {
      client?.removeAllListeners('error');
      void client?.end().catch(() => undefined);
      for (const w of batch) w.reject(err);
      return;
    }
    // From here to the COMMIT nothing may wait: see the class comment.
    for (const w of batch) if (allowed.has(w.id)) w.write();
    const committed = client.query('commit');
    for (const w of batch) w.resolve(allowed.has(w.id));
    try {
      await committed;
      this.idle.push(client);
    } catch (err) {
      this.logger.warn({ err, emails: batch.length }, `could not commit ${this.what}`);
      void client.end().catch(() => undefined);
    }
  }

  /** Opens the round's transaction and runs the guard; returns the ids it allowed. */
  private async lock(client: Client, batch: Waiting[]): Promise<Set<string>> {
    const ids = client.escapeLiteral(`{${batch.map((w) => w.id).join(',')}}`);
    const leases = client.escapeLiteral(`{${batch.map((w) => w.leaseId).join(',')}}`);
    // One round trip: the simple query protocol runs both statements and leaves the transaction open.
    const results = (await client.query(`begin; execute guard(${ids}, ${leases})`)) as unknown as Array<QueryResult<{ id: string }>>;
    return new Set(results[1]!.rows.map((r) => r.id));
  }

  private async connect(): Promise<Client> {
    // Named, so that pg_stat_activity (and a benchmark's CPU by connection) tells the rounds apart.
    const client = new Client({ connectionString: this.databaseUrl, application_name: `postwire ${this.what}` });
    // An error while idle ends the client; the next round connects again.
    client.on('error', (err) => {
      this.logger.warn({ err }, `${this.what}: connection lost`);
      const index = this.idle.indexOf(client);
      if (index !== -1) this.idle.splice(index, 1);
    });
    await client.connect();
    // Planning the guard anew each round cost as much as running it, so it is prepared, and its plan may
    // outlive the statistics: a campaign fills an email_queue that was analyzed empty within seconds. The
    // connection never scans a table whole, so the plan reaches the queue's rows by key at any size.
    try {
      await client.query(`set enable_seqscan = off; prepare guard(uuid[], uuid[]) as ${this.guard}`);
    } catch (err) {
      void client.end().catch(() => undefined);
      throw err;
    }
    return client;
  }
}
