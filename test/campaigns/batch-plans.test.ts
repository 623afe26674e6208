import { Client } from 'pg';
import { initOrm } from '../../src/app/orm';
import type { Orm } from '../../src/db/orm';
import { audienceCondition } from '../../src/modules/campaigns/audience';
import { recipientRowsSql, snapshotPageSql } from '../../src/modules/campaigns/send-run';
import { marketingRefusalSql } from '../../src/modules/consent/rules';
import { throwawayDatabaseUrl } from '../helpers/database';
import { numbered, planNodes, type ExplainRow, type PlanNode } from '../helpers/plans';

/**
 * A campaign batch reads its 500 recipients' contacts: by key, whatever the audience's size. Joined instead,
 * PostgreSQL hashed the whole contacts table for every batch once it held some thousands of contacts, so a
 * send's cost per email grew with its audience. Fixing the recipients reads as much of them and of the contacts
 * as one page takes, wherever the walk stands.
 */

let db: Client;
let orm: Orm;
beforeAll(async () => {
  // A database of its own: its tables are filled and analyzed in a transaction that is rolled back.
  const url = await throwawayDatabaseUrl();
  db = new Client({ connectionString: url });
  await db.connect();
  orm = await initOrm(url, 1);
});
afterAll(async () => {
  await db?.end();
  await orm?.close();
});

const CONTACTS = 20_000;

/** `CONTACTS` subscribed contacts of a new project, inside the open transaction. */
async function seedContacts(project: string): Promise<void> {
  // Foreign keys are checked at commit, which never comes.
  await db.query(
    `insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
     select gen_random_uuid(), now() - interval '1 minute', now(), $1, 'reader-' || i || '@example.test', true, '{}' from generate_series(1, $2) i`,
    [project, CONTACTS],
  );
}

/** Rows a plan's nodes of `relation` returned, over all their loops. */
const rowsOf = (nodes: PlanNode[], relation: string) =>
  nodes.filter((n) => n['Relation Name'] === relation).reduce((sum, n) => sum + (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1), 0);

describe("a campaign batch's plan", () => {
  it("reads each recipient's contact by its key among 20,000 contacts", async () => {
    const project = crypto.randomUUID();
    const campaign = crypto.randomUUID();
    await db.query('begin');
    try {
      await seedContacts(project);
      await db.query(
        `insert into campaign_recipients (campaign_id, seq, contact_id)
         select $1, (row_number() over (order by id))::int - 1, id from contacts where project_id = $2`,
        [campaign, project],
      );
      await db.query('analyze contacts, campaign_recipients');
      const sql = recipientRowsSql(marketingRefusalSql('c', null).sql, 'null', 'r.campaign_id = $1 and r.seq >= $2 and r.seq < $3');
      const { rows } = await db.query<ExplainRow>(`explain (format json) ${sql}`, [campaign, 5000, 5500]);
      const contacts = planNodes(rows).filter((node) => node['Relation Name'] === 'contacts');
      expect(contacts.length).toBeGreaterThan(0);
      for (const node of contacts) expect(node).toMatchObject({ 'Node Type': 'Index Scan', 'Index Name': 'contacts_pkey' });

      const read = await db.query<{ id: string; email: string }>(sql, [campaign, 5000, 5500]);
      expect(read.rows).toHaveLength(500);
      expect(read.rows.every((r) => r.email.startsWith('reader-'))).toBe(true);
    } finally {
      await db.query('rollback');
    }
  });

  it('fixes the next page of recipients halfway through 20,000 contacts reading about one page of each table', async () => {
    const project = crypto.randomUUID();
    const campaign = crypto.randomUUID();
    const page = 5_000;
    await db.query('begin');
    try {
      await seedContacts(project);
      // The walk stands halfway: the first half of the contacts, in id order, are recipients already.
      await db.query(
        `insert into campaign_recipients (campaign_id, seq, contact_id)
         select $1, (row_number() over (order by id))::int - 1, id from contacts where project_id = $2 order by id limit $3`,
        [campaign, project, CONTACTS / 2],
      );
      await db.query('analyze contacts, campaign_recipients');
      const after = (
        await db.query<{ id: string }>(
          'select contact_id::text as id from campaign_recipients where campaign_id = $1 order by contact_id desc limit 1',
          [campaign],
        )
      ).rows[0]!.id;
      const audience = {
        projectId: project,
        type: 'MARKETING',
        audienceType: 'ALL',
        segmentId: null,
        audienceCondition: null,
        topicId: null,
      } as const;
      const condition = await audienceCondition(orm.em.fork(), audience, new Date());
      const sql = numbered(snapshotPageSql(condition.sql));
      const params = [campaign, project, ...condition.params, new Date(), after, campaign, after, page, campaign];
      const { rows } = await db.query<ExplainRow>(`explain (analyze, format json) ${sql}`, params);
      const nodes = planNodes(rows);
      // The recipients fixed so far are not read (the next position is one index entry); the contacts, a page's worth.
      expect(rowsOf(nodes, 'campaign_recipients')).toBeLessThanOrEqual(1);
      expect(rowsOf(nodes, 'contacts')).toBeLessThanOrEqual(page);
      const fixed = await db.query<{ count: number; max: number }>(
        'select count(*)::int as count, max(seq)::int as max from campaign_recipients where campaign_id = $1',
        [campaign],
      );
      expect(fixed.rows[0]).toEqual({ count: CONTACTS / 2 + page, max: CONTACTS / 2 + page - 1 });
    } finally {
      await db.query('rollback');
    }
  });
});
