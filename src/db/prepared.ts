import type { Knex } from '@mikro-orm/knex';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Runs a statement as a named prepared statement of its connection, in `em`'s transaction when it has one:
 * PostgreSQL parses and plans it once per connection instead of on every call (measured: 0.7 ms of database
 * CPU per contact write instead of 1.1 ms). For the statements of hot paths; `name` must stay unique to
 * `sql`. Errors are the driver's (e.g. `code` 23505), not MikroORM's exceptions. After five runs PostgreSQL may
 * keep a generic plan for the connection's life, through growth its statistics have not seen (an ANALYZE
 * replans it): a statement over a table that fills from empty within seconds must reach its rows by key
 * whatever the estimates say, as the claim's does (delivery/claim.ts: `enable_seqscan` off). A statement whose
 * generic plan does not know a parameter that sways the estimates (a limit) is planned afresh on every run
 * unless its transaction forces the generic plan (`plan_cache_mode`), as the claim's does.
 */
export async function executePrepared<T>(em: EntityManager, name: string, sql: string, params: readonly unknown[]): Promise<T[]> {
  const query = em
    .getKnex()
    .raw(sql, [...params] as Knex.RawBinding[])
    .options({ name });
  const tx = em.getTransactionContext<Knex.Transaction>();
  const result = (await (tx ? query.transacting(tx) : query)) as { rows: T[] };
  return result.rows;
}

const GENERIC_PLANS_BY_KEY = `set_config('enable_seqscan', 'off', true), set_config('plan_cache_mode', 'force_generic_plan', true)`;

/**
 * For a transaction whose prepared statements must run their generic plans and reach rows by key (the claim of
 * the delivery queue): one round trip, in force until the transaction ends.
 */
export const KEYED_GENERIC_PLANS = `select ${GENERIC_PLANS_BY_KEY}`;

/**
 * KEYED_GENERIC_PLANS without bitmap scans, for a claim that walks a queue's index in order up to a limit (the
 * events outbox's): a bitmap scan reads the whole range instead, every entry its deletes left there until a
 * vacuum, and a generic plan made while the statistics knew a few hundred rows chose one for a project's due
 * events. (The delivery claim keeps them: without, its plan made with the queue analyzed empty read the whole
 * queue by its primary key.)
 */
export const ORDERED_GENERIC_PLANS = `select ${GENERIC_PLANS_BY_KEY}, set_config('enable_bitmapscan', 'off', true)`;

/**
 * The rows of `from` whose `key` equals `value` (a column of the query around it), as a lateral subquery kept
 * apart by `offset 0`: its only plan is a lookup of `key`'s index per outer row. As a join, a generic plan
 * made while the statistics said the table was empty (a fresh deployment; a bench that deleted its last run)
 * scanned the whole table per outer row, and a prepared statement keeps its plan until the next ANALYZE
 * (test/foundation/claim-plans.test.ts).
 */
export const keyLookup = (from: string, key: string, value: string, columns = '*') =>
  `lateral (select ${columns} from ${from} where ${key} = ${value} offset 0)`;

/** A unique violation as the driver reports it. */
export const isUniqueViolation = (err: unknown) => (err as { code?: unknown } | null)?.code === '23505';
