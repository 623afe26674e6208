import type { EntityManager } from '@mikro-orm/postgresql';
import { backoffMs } from '../../db/backoff';
import { executePrepared, keyLookup, ORDERED_GENERIC_PLANS } from '../../db/prepared';
import type { Orm } from '../../db/orm';
import { QueueVacuum } from '../../db/queue-vacuum';
import { WakeLoop } from '../../db/wake-loop';
import type { Logger } from '../../logger';
import { OUTBOX_CHANNEL } from './channel';
import { byContact, type EventConsumer, type OutboxEvent } from './consumer';

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
  /** The outbox is vacuumed after this many of its rows were dispatched or retried (QueueVacuum). */
  vacuumEveryRows: number;
}

const DEFAULTS: DispatcherOptions = {
  batchSize: 100,
  pollIntervalMs: 5_000,
  retryBaseMs: 1_000,
  retryMaxMs: 5 * 60_000,
  handoffTimeoutMs: 30_000,
  vacuumEveryRows: 2_000,
};

interface DueRow {
  id: string;
  project_id: string;
  contact_id: string;
  name: string;
  data: Record<string, unknown>;
  created_at: Date | string;
  attempts: number;
}

/**
 * Due events, project by project in turn: the projects with due events are found by a skip scan of their index
 * (one probe each), those after the last project served come first, and the batch takes each one's oldest
 * event, then each one's second, and so on, so that one project's backlog never holds back another's events
 * for longer than a batch (docs/architecture.md "Events: the outbox"). Rows locked by another dispatcher are
 * skipped, so any number of workers share the outbox. Prepared, in a transaction of generic plans that reach
 * rows by key and walk indexes in order (src/db/prepared.ts): the outbox fills from empty within seconds, and a
 * plan made while it was empty must not scan it. A project's events are asked for as a range of one project, in
 * that project's index order: as an equality, a generic plan made while the statistics knew one project read
 * the due index in time order, through every other project's events. Each claimed event is read by its key
 * (keyLookup).
 */
export const CLAIM = `
with recursive due ("project_id") as (
  (select "project_id" from event_outbox where "next_dispatch_at" <= clock_timestamp() order by "project_id" limit 1)
  union all
  select (select o."project_id" from event_outbox o
          where o."next_dispatch_at" <= clock_timestamp() and o."project_id" > due."project_id"
          order by o."project_id" limit 1)
  from due where due."project_id" is not null),
turns as (
  select "project_id", row_number() over (order by "project_id" <= ?::uuid, "project_id") as "turn"
  from due where "project_id" is not null),
share as (select greatest(1, ceil(?::float / count(*)))::int * 2 as "n" from turns),
candidates as (
  select o."event_id", t."turn", row_number() over (partition by t."project_id" order by o."next_dispatch_at", o."seq") as "pos"
  from (select * from turns order by "turn" limit ?) t
  cross join lateral (
    select "event_id", "next_dispatch_at", "seq" from event_outbox
    where "project_id" >= t."project_id" and "project_id" <= t."project_id" and "next_dispatch_at" <= clock_timestamp()
    order by "project_id", "next_dispatch_at", "seq" limit (select "n" from share)) o),
claimed as (
  select "event_id", "project_id", "attempts", "next_dispatch_at", "seq" from event_outbox
  where "event_id" = any(array(select "event_id" from candidates order by "pos", "turn" limit ?::int))
  for update skip locked)
select e."id", e."project_id", e."contact_id", e."name", e."data", e."created_at", c."attempts"
from claimed c cross join ${keyLookup('events', '"id"', 'c."event_id"')} e
order by c."next_dispatch_at", c."seq"`;

/** How long a dispatcher waits when every due event is held by another (see `pass`). */
const HELD_WAIT_MS = 100;

/** Before any project in the order of uuids: the first claim begins with the first project. */
const FIRST_TURN = '00000000-0000-0000-0000-000000000000';

const MARK_DISPATCHED = `delete from event_outbox where "event_id" = any(?::uuid[])`;

const MARK_FAILED = `
update event_outbox o set "attempts" = o."attempts" + 1,
  "next_dispatch_at" = clock_timestamp() + f.delay_ms * interval '1 millisecond', "error" = f.error
from jsonb_to_recordset(?::jsonb) as f(id uuid, delay_ms integer, error text) where o."event_id" = f.id`;

const NEXT_DUE = `select (extract(epoch from min("next_dispatch_at") - clock_timestamp()) * 1000)::float8 as ms from event_outbox`;

interface Failure {
  id: string;
  delay_ms: number;
  error: string;
}

/**
 * Hands committed events (their rows in event_outbox) to the registered consumers. Wakes on the NOTIFY
 * sent after each commit that recorded events, so latency is a round trip or two, and polls slowly in case a
 * notification was missed.
 * An event leaves the outbox only after every consumer took it; a failure retries it with backoff.
 */
export class EventDispatcher {
  private readonly options: DispatcherOptions;
  private readonly loop: WakeLoop;
  private readonly vacuum: QueueVacuum;
  /** The last project served: the next claim begins with the projects after it. */
  private turn = FIRST_TURN;

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
    this.vacuum = new QueueVacuum(orm, 'event_outbox', this.options.vacuumEveryRows, logger);
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.vacuum.close();
  }

  /**
   * One batch: the loop runs the next pass at once while events are due. A claim that found none while some
   * are due (another dispatcher holds them until it commits) waits a little before it looks again, rather than
   * claim nothing in a loop.
   */
  private async pass(): Promise<number> {
    const claimed = await this.dispatchBatch();
    const due = await this.nextDueInMs();
    return claimed === 0 ? Math.max(due, HELD_WAIT_MS) : due;
  }

  private async nextDueInMs(): Promise<number> {
    const [row] = await this.orm.em.fork().execute<{ ms: number | null }[]>(NEXT_DUE);
    return row?.ms ?? Number.POSITIVE_INFINITY;
  }

  /** Claims one batch of due events, hands them off and records the outcome; returns how many it claimed. */
  private async dispatchBatch(): Promise<number> {
    const claimed = await this.orm.em.fork().transactional(async (tx: EntityManager) => {
      await tx.execute(ORDERED_GENERIC_PLANS);
      const size = this.options.batchSize;
      const rows = await executePrepared<DueRow>(tx, 'outbox_claim', CLAIM, [this.turn, size, size, size]);
      if (rows.length === 0) return 0;
      this.turn = lastTurn(
        rows.map((r) => r.project_id),
        this.turn,
      );
      const failures = await this.handOff(rows.map(toOutboxEvent));
      const failed = new Set(failures.map((f) => f.id));
      const done = rows.filter((r) => !failed.has(r.id)).map((r) => r.id);
      if (done.length) await executePrepared(tx, 'outbox_dispatched', MARK_DISPATCHED, [`{${done.join(',')}}`]);
      if (failures.length) await tx.execute(MARK_FAILED, [JSON.stringify(failures)]);
      return rows.length;
    });
    // Each claimed row was deleted or moved to its retry time: a dead version either way.
    this.vacuum.rowsLeftDead(claimed);
    return claimed;
  }

  /**
   * Each consumer takes the batch (those events a consumer before it refused excepted): at once when it can
   * (`handleBatch`), else event by event, one contact's in order and different contacts' concurrently.
   */
  private async handOff(events: OutboxEvent[]): Promise<Failure[]> {
    const failed = new Map<string, string>();
    for (const consumer of this.consumers) {
      const pending = events.filter((e) => !failed.has(e.id));
      if (pending.length === 0) break;
      let errors: Map<string, string>;
      try {
        errors = await withTimeout(
          (signal) =>
            consumer.handleBatch ? consumer.handleBatch(pending, signal) : byContact(pending, (e) => consumer.handle(e, signal)),
          this.options.handoffTimeoutMs,
        );
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        errors = new Map(pending.map((e) => [e.id, message]));
      }
      for (const [id, error] of errors) failed.set(id, `${consumer.name}: ${error}`);
      if (errors.size)
        this.logger.warn({ consumer: consumer.name, failed: errors.size, error: [...errors.values()][0] }, 'event hand-off failed');
    }
    return events
      .filter((e) => failed.has(e.id))
      .map((e) => ({
        id: e.id,
        delay_ms: backoffMs(e.attempts, this.options.retryBaseMs, this.options.retryMaxMs),
        error: failed.get(e.id)!,
      }));
  }
}

/** The project of this batch served last in turn order, where the next claim begins. */
function lastTurn(projects: string[], after: string): string {
  const order = (p: string) => (p > after ? `0${p}` : `1${p}`);
  return projects.reduce((last, p) => (order(p) > order(last) ? p : last), projects[0]!);
}

const toOutboxEvent = (r: DueRow): OutboxEvent => ({
  id: r.id,
  projectId: r.project_id,
  contactId: r.contact_id,
  name: r.name,
  data: r.data,
  createdAt: new Date(r.created_at),
  attempts: r.attempts,
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
