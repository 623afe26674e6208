import { Client } from 'pg';
import { ORDERED_GENERIC_PLANS } from '../../src/db/prepared';
import { CLAIM } from '../../src/modules/outbox/dispatcher';
import { throwawayDatabaseUrl } from '../helpers/database';

/**
 * A dispatcher's connection keeps one generic plan of the outbox claim, made with whatever statistics the
 * tables had then (docs/contributors/events.md "The claim's plan"): a fresh deployment's events table analyzed
 * empty, an outbox analyzed while a few hundred events waited. Whatever they say, the plan must read each
 * claimed event by its key and walk a project's due events in index order up to its share: either of the
 * plans these statistics used to give read a whole table or a whole backlog on every claim.
 */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

let db: Client;
beforeAll(async () => {
  // A database of its own: the statistics are changed on purpose.
  db = new Client({ connectionString: await throwawayDatabaseUrl() });
  await db.connect();
});
afterAll(() => db?.end());

/** The claim's plan as a dispatcher's transaction makes it, with the statistics of the moment. */
async function claimPlan(): Promise<PlanNode[]> {
  let n = 0;
  const text = CLAIM.replace(/\?/g, () => `$${++n}`);
  await db.query(ORDERED_GENERIC_PLANS);
  await db.query(`prepare claim as ${text}`);
  try {
    const { rows } = await db.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      `explain (format json) execute claim('00000000-0000-0000-0000-000000000000', 100, 100, 100)`,
    );
    return nodesOf(rows[0]!['QUERY PLAN'][0]!.Plan);
  } finally {
    await db.query('deallocate claim');
  }
}

describe('the events outbox claim', () => {
  it('reads claimed events by key and a project backlog in order, with events analyzed empty and 300 due events analyzed', async () => {
    await db.query('begin');
    try {
      await db.query(
        `insert into event_outbox (event_id, project_id, seq, next_dispatch_at)
         select gen_random_uuid(), '11111111-1111-1111-1111-111111111111', g, now() - interval '1 minute' + g * interval '1 ms'
         from generate_series(1, 300) g`,
      );
      await db.query('analyze events, event_outbox');
      const plan = await claimPlan();
      const events = plan.filter((node) => node['Relation Name'] === 'events');
      expect(events.length).toBeGreaterThan(0);
      for (const node of events) expect(node['Index Cond']).toContain('event_id');
      const outbox = plan.filter((node) => node['Relation Name'] === 'event_outbox');
      expect(outbox.map((node) => node['Node Type'])).toEqual(expect.arrayContaining(['Index Scan']));
      expect(plan.map((node) => node['Node Type'])).not.toContain('Bitmap Heap Scan');
    } finally {
      await db.query('rollback');
    }
  });
});
