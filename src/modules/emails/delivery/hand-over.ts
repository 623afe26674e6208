import { Client, type QueryResult } from 'pg';
import type { Logger } from '../../../logger';

/** Hand-over rounds under way at once, each on a connection of its own. */
const ROUNDS = 2;

interface Waiting {
  id: string;
  leaseId: string;
  endData: () => void;
  resolve: (handed: boolean) => void;
  reject: (err: unknown) => void;
}

/**
 * The last step of sending, where a message becomes the SMTP server's: its terminating dot (docs/delivery.md,
 * "Exactly once"). A message waits here with everything but that dot on its connection. A round takes the
 * messages waiting, and on a connection of its own:
 *
 * 1. opens a transaction that marks them handed over (`handed_over_at`) where this worker still holds their
 *    lease and they are still PENDING;
 * 2. then, in one synchronous run of the event loop, writes the dot of each marked message and the COMMIT.
 *
 * So a worker killed before that run leaves neither: the transaction rolls back with its connection and the
 * server discards the unfinished messages. Killed after it, the kernel still delivers both the dots and the
 * COMMIT, and the mark tells whoever takes the emails over that they were sent. Only a kill within the run
 * itself, between two writes of a few microseconds, can send a message whose mark is then lost: the dots go
 * first, so that such a message is sent twice rather than never. A message whose lease another worker took,
 * or that was deleted meanwhile, gets no dot.
 */
export class HandOver {
  private queue: Waiting[] = [];
  private readonly idle: Client[] = [];
  private readonly rounds = new Set<Promise<void>>();

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {}

  /**
   * Resolves true once `endData` has written the dot under a mark, false when the email is no longer this
   * worker's to send (its dot was not written); rejects when the database could not be asked (no dot either).
   */
  pass(id: string, leaseId: string, endData: () => void): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id, leaseId, endData, resolve, reject });
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
    let handed: Set<string>;
    try {
      client = this.idle.pop() ?? (await this.connect());
      handed = await mark(client, batch);
    } catch (err) {
      client?.removeAllListeners('error');
      void client?.end().catch(() => undefined);
      for (const w of batch) w.reject(err);
      return;
    }
    // From here to the COMMIT nothing may wait: see the class comment.
    for (const w of batch) if (handed.has(w.id)) w.endData();
    const committed = client.query('commit');
    for (const w of batch) w.resolve(handed.has(w.id));
    try {
      await committed;
      this.idle.push(client);
    } catch (err) {
      // The dots are out; the SENT marks that follow the server's replies record these messages all the same.
      this.logger.warn({ err, emails: batch.length }, 'could not commit hand-over marks');
      void client.end().catch(() => undefined);
    }
  }

  private async connect(): Promise<Client> {
    const client = new Client({ connectionString: this.databaseUrl });
    // An error while idle ends the client; the next round connects again.
    client.on('error', (err) => {
      this.logger.warn({ err }, 'hand-over connection lost');
      const index = this.idle.indexOf(client);
      if (index !== -1) this.idle.splice(index, 1);
    });
    await client.connect();
    return client;
  }
}

/** Opens the round's transaction and marks the emails this worker may still send; returns their ids. */
async function mark(client: Client, batch: Waiting[]): Promise<Set<string>> {
  const leases = client.escapeLiteral(JSON.stringify(batch.map((w) => ({ id: w.id, lease_id: w.leaseId }))));
  // One round trip: the simple query protocol runs both statements and leaves the transaction open.
  const results = (await client.query(`begin;
    update emails e set "handed_over_at" = clock_timestamp()
    from jsonb_to_recordset(${leases}::jsonb) as h("id" uuid, "lease_id" uuid)
    where e."id" = h."id" and e."lease_id" = h."lease_id" and e."status" = 'PENDING'
    returning e."id"`)) as unknown as Array<QueryResult<{ id: string }>>;
  return new Set(results[1]!.rows.map((r) => r.id));
}
