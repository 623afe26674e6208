import { Client } from 'pg';
import { KEYED_GENERIC_PLANS, ORDERED_GENERIC_PLANS } from '../../src/db/prepared';
import { CANDIDATES, LEASE } from '../../src/modules/emails/delivery/claim';
import { CLAIM } from '../../src/modules/outbox/dispatcher';
import { throwawayDatabaseUrl } from '../helpers/database';
import { numbered, planNodes, type ExplainRow, type PlanNode } from '../helpers/plans';

/**
 * A worker's connection keeps one generic plan of each claim statement, made with whatever statistics the
 * tables had then (docs/contributors/events.md "The claim's plan"): a fresh deployment's emails and events
 * analyzed empty, an outbox analyzed while a few hundred events waited. Whatever they say, the plans must read
 * each email and event by its key and walk a project's due events in index order up to its share: the plans
 * these statistics used to give read a whole table or a whole backlog on every claim.
 */

let db: Client;
beforeAll(async () => {
  // A database of its own: the statistics are changed on purpose.
  db = new Client({ connectionString: await throwawayDatabaseUrl() });
  await db.connect();
});
afterAll(() => db?.end());

/** A statement's generic plan as its transaction's settings make it, with the statistics of the moment. */
async function genericPlan(settings: string, statement: string, args: string): Promise<PlanNode[]> {
  await db.query(settings);
  await db.query(`prepare claim as ${numbered(statement)}`);
  try {
    const { rows } = await db.query<ExplainRow>(`explain (format json) execute claim(${args})`);
    return planNodes(rows);
  } finally {
    await db.query('deallocate claim');
  }
}

/** Runs `check` in a transaction that is rolled back, after analyzing the tables as `prepare` left them. */
async function withStatistics(prepare: string[], check: () => Promise<void>): Promise<void> {
  await db.query('begin');
  try {
    for (const statement of prepare) await db.query(statement);
    await check();
  } finally {
    await db.query('rollback');
  }
}

const expectReadByKey = (plan: PlanNode[], table: string, key: string) => {
  const scans = plan.filter((node) => node['Relation Name'] === table);
  expect(scans.length).toBeGreaterThan(0);
  for (const node of scans) expect(node['Index Cond']).toContain(key);
};

describe('the claims generic plans', () => {
  it('the events outbox: claimed events by key and a project backlog in order, with events analyzed empty and 300 due events analyzed', async () => {
    await withStatistics(
      [
        `insert into event_outbox (event_id, project_id, seq, next_dispatch_at)
         select gen_random_uuid(), '11111111-1111-1111-1111-111111111111', g, now() - interval '1 minute' + g * interval '1 ms'
         from generate_series(1, 300) g`,
        'analyze events, event_outbox',
      ],
      async () => {
        const plan = await genericPlan(ORDERED_GENERIC_PLANS, CLAIM, `'00000000-0000-0000-0000-000000000000', 100, 100, 100`);
        expectReadByKey(plan, 'events', 'event_id');
        const outbox = plan.filter((node) => node['Relation Name'] === 'event_outbox');
        expect(outbox.map((node) => node['Node Type'])).toEqual(expect.arrayContaining(['Index Scan']));
        expect(plan.map((node) => node['Node Type'])).not.toContain('Bitmap Heap Scan');
      },
    );
  });

  it('the delivery queue: each candidate email and each leased email by key, with emails analyzed empty', async () => {
    await withStatistics(['analyze emails, email_queue'], async () => {
      expectReadByKey(await genericPlan(KEYED_GENERIC_PLANS, CANDIDATES, '100, 2, 100'), 'emails', 'email_id');
      const lease = await genericPlan(
        KEYED_GENERIC_PLANS,
        LEASE,
        `'00000000-0000-0000-0000-000000000000', 1000, '{00000000-0000-0000-0000-000000000001}'`,
      );
      expectReadByKey(lease, 'emails', 'email_id');
    });
  });
});
