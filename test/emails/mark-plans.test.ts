import { Client } from 'pg';
import { MARK_SENT } from '../../src/modules/emails/delivery/outcomes';
import { throwawayDatabaseUrl } from '../helpers/database';
import { numbered, planNodes, type ExplainRow } from '../helpers/plans';

/**
 * A SENT mark looks its emails' dequeued attempts up in one object built from the queue rows it deletes. Built
 * once per statement whatever the statistics say: when they said the queue was empty, as an ANALYZE or VACUUM
 * between two batches records it, PostgreSQL built the object again for every email of the mark.
 */

let db: Client;
beforeAll(async () => {
  // A database of its own: its tables are filled and analyzed in a transaction that is rolled back.
  db = new Client({ connectionString: await throwawayDatabaseUrl() });
  await db.connect();
});
afterAll(() => db?.end());

const EMAILS = 200;
const SENT_BEFORE = 20_000;

it("builds a mark's dequeued attempts once when the queue's statistics say it is empty", async () => {
  const project = crypto.randomUUID();
  await db.query('begin');
  try {
    // Foreign keys are checked at commit, which never comes.
    const insertEmails = (projectId: string, count: number, status: string) =>
      db.query<{ id: string }>(
        `insert into emails (id, created_at, updated_at, project_id, contact_id, to_address, from_address, subject, html, size_bytes, status, source_type)
         select gen_random_uuid(), now(), now(), $1, gen_random_uuid(), 'reader-' || i || '@example.test', 'news@example.test', 'News',
           '<p>News</p>', 100, $3, 'CAMPAIGN'
         from generate_series(1, $2) i returning id`,
        [projectId, count, status],
      );
    const { rows: emails } = await insertEmails(project, EMAILS, 'PENDING');
    // Another project's emails, already sent: a table where looking a mark's emails up by key is worth it.
    await insertEmails(crypto.randomUUID(), SENT_BEFORE, 'SENT');
    const enqueue = `insert into email_queue ("email_id", "project_id", "source_type", "priority", "due_at", "attempts")
      select e.id, $1, 'CAMPAIGN', 2, now(), 1 from emails e where e.project_id = $1`;
    // The queue emptied since it was last filled: its pages are there, its statistics count no rows.
    await db.query(enqueue, [project]);
    await db.query('delete from email_queue where project_id = $1', [project]);
    await db.query('analyze email_queue, emails');
    await db.query(enqueue, [project]);

    const at = new Date().toISOString();
    const { rows } = await db.query<ExplainRow>(`explain (analyze, format json) ${numbered(MARK_SENT)}`, [
      JSON.stringify(emails.map(({ id }) => ({ id, at }))),
    ]);
    const nodes = planNodes(rows);
    const aggregates = nodes.filter((n) => n['Node Type'] === 'Aggregate');
    expect(aggregates.length).toBeGreaterThan(0);
    for (const node of aggregates) expect(node['Actual Loops']).toBe(1);

    const marked = await db.query<{ sent: number; queued: number; events: number }>(
      `select (select count(*)::int from emails where project_id = $1 and status = 'SENT' and attempts = 1) as sent,
         (select count(*)::int from email_queue where project_id = $1) as queued,
         (select count(*)::int from events where project_id = $1 and name = 'email.sent') as events`,
      [project],
    );
    expect(marked.rows[0]).toEqual({ sent: EMAILS, queued: 0, events: EMAILS });
  } finally {
    await db.query('rollback');
  }
});
