import type { EntityManager } from '@mikro-orm/postgresql';
import { backoffMs } from '../../db/backoff';
import type { Orm } from '../../db/orm';
import { WakeLoop } from '../../db/wake-loop';
import type { Logger } from '../../logger';
import { OUTBOX_CHANNEL } from './channel';
import type { EventConsumer, OutboxEvent } from './consumer';

export interface DispatcherOptions {
  /** Events claimed per transaction. */
  batchSize: number;
  /** The slow poll that backs up notifications. */
  pollIntervalMs: number;
  /** First retry delay after a failed hand-off; it doubles per attempt up to `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** A consumer that takes longer than this for one event has failed it. */
  handoffTimeoutMs: number;
}

const DEFAULTS: DispatcherOptions = {
  batchSize: 100,
  pollIntervalMs: 5_000,
  retryBaseMs: 1_000,
  retryMaxMs: 5 * 60_000,
  handoffTimeoutMs: 30_000,
};

interface DueRow {
  id: string;
  project_id: string;
  contact_id: string;
  name: string;
  data: Record<string, unknown>;
  created_at: string;
  dispatch_attempts: number;
}

// Rows locked by another dispatcher are skipped, so any number of workers share the outbox.
const CLAIM = `
select "id", "project_id", "contact_id", "name", "data", "created_at", "dispatch_attempts" from events
where "dispatched_at" is null and "next_dispatch_at" <= clock_timestamp()
order by "next_dispatch_at", "seq" limit ? for update skip locked`;

const MARK_DISPATCHED = `
update events set "dispatched_at" = clock_timestamp(), "dispatch_error" = null
where "id" in (select jsonb_array_elements_text(?::jsonb)::uuid)`;

const MARK_FAILED = `
update events e set "dispatch_attempts" = e."dispatch_attempts" + 1,
  "next_dispatch_at" = clock_timestamp() + f.delay_ms * interval '1 millisecond', "dispatch_error" = f.error
from jsonb_to_recordset(?::jsonb) as f(id uuid, delay_ms integer, error text) where e."id" = f.id`;

const NEXT_DUE = `
select (extract(epoch from min("next_dispatch_at") - clock_timestamp()) * 1000)::float8 as ms
from events where "dispatched_at" is null`;

interface Failure {
  id: string;
  delay_ms: number;
  error: string;
}

/**
 * Hands committed events (the events table is the outbox) to the registered consumers. Wakes on the NOTIFY
 * sent after each commit that recorded events, so latency is a round trip or two, and polls slowly in case a
 * notification was missed.
 * An event is marked dispatched only after every consumer took it; a failure retries it with backoff.
 */
export class EventDispatcher {
  private readonly options: DispatcherOptions;
  private readonly loop: WakeLoop;

  constructor(
    private readonly orm: Orm,
    databaseUrl: string,
    private readonly consumers: EventConsumer[],
    private readonly logger: Logger,
    options: Partial<DispatcherOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.loop = new WakeLoop(databaseUrl, () => this.pass(), logger, {
      name: 'events outbox',
      channel: OUTBOX_CHANNEL,
      pollIntervalMs: this.options.pollIntervalMs,
    });
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async pass(): Promise<number> {
    let claimed: number;
    do claimed = await this.dispatchBatch();
    while (!this.loop.isStopping && claimed === this.options.batchSize);
    return this.nextDueInMs();
  }

  private async nextDueInMs(): Promise<number> {
    const [row] = await this.orm.em.fork().execute<{ ms: number | null }[]>(NEXT_DUE);
    return row?.ms ?? Number.POSITIVE_INFINITY;
  }

  /** Claims one batch of due events, hands them off and records the outcome; returns how many it claimed. */
  async dispatchBatch(): Promise<number> {
    return this.orm.em.fork().transactional(async (tx: EntityManager) => {
      const rows = await tx.execute<DueRow[]>(CLAIM, [this.options.batchSize]);
      if (rows.length === 0) return 0;
      const failures = await this.handOff(rows.map(toOutboxEvent));
      const failed = new Set(failures.map((f) => f.id));
      const done = rows.filter((r) => !failed.has(r.id)).map((r) => r.id);
      if (done.length) await tx.execute(MARK_DISPATCHED, [JSON.stringify(done)]);
      if (failures.length) await tx.execute(MARK_FAILED, [JSON.stringify(failures)]);
      return rows.length;
    });
  }

  /** One contact's events go in order; different contacts' go concurrently. */
  private async handOff(events: OutboxEvent[]): Promise<Failure[]> {
    const byContact = new Map<string, OutboxEvent[]>();
    for (const e of events) byContact.set(e.contactId, [...(byContact.get(e.contactId) ?? []), e]);
    const failures: Failure[] = [];
    await Promise.all(
      [...byContact.values()].map(async (list) => {
        for (const event of list) {
          const error = await this.deliver(event);
          if (error)
            failures.push({ id: event.id, delay_ms: backoffMs(event.attempts, this.options.retryBaseMs, this.options.retryMaxMs), error });
        }
      }),
    );
    return failures;
  }

  private async deliver(event: OutboxEvent): Promise<string | null> {
    for (const consumer of this.consumers) {
      try {
        await withTimeout((signal) => consumer.handle(event, signal), this.options.handoffTimeoutMs);
      } catch (err) {
        const error = `${consumer.name}: ${err instanceof Error ? err.message : String(err)}`;
        this.logger.warn({ err, eventId: event.id, consumer: consumer.name, attempts: event.attempts + 1 }, 'event hand-off failed');
        return error;
      }
    }
    return null;
  }
}

const toOutboxEvent = (r: DueRow): OutboxEvent => ({
  id: r.id,
  projectId: r.project_id,
  contactId: r.contact_id,
  name: r.name,
  data: r.data,
  createdAt: new Date(r.created_at),
  attempts: r.dispatch_attempts,
});

function withTimeout<T>(work: (signal: AbortSignal) => Promise<T>, ms: number): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`timed out after ${ms} ms`));
    }, ms);
  });
  return Promise.race([work(controller.signal), timeout]).finally(() => clearTimeout(timer));
}
