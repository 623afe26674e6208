import { Client } from 'pg';
import { recipientRowsSql } from '../../src/modules/campaigns/send-run';
import { marketingRefusalSql } from '../../src/modules/consent/rules';
import { throwawayDatabaseUrl } from '../helpers/database';
import { nodesOf, type PlanNode } from '../helpers/plans';

/**
 * A campaign batch reads its 500 recipients' contacts: by key, whatever the audience's size. Joined instead,
 * PostgreSQL hashed the whole contacts table for every batch once it held some thousands of contacts, so a
 * send's cost per email grew with its audience.
 */

let db: Client;
beforeAll(async () => {
  // A database of its own: its tables are filled and analyzed in a transaction that is rolled back.
  db = new Client({ connectionString: await throwawayDatabaseUrl() });
  await db.connect();
});
afterAll(() => db?.end());

describe("a campaign batch's plan", () => {
  it("reads each recipient's contact by its key among 20,000 contacts", async () => {
    const project = crypto.randomUUID();
    const campaign = crypto.randomUUID();
    await db.query('begin');
    try {
      // Foreign keys are checked at commit, which never comes.
      await db.query(
        `insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
         select gen_random_uuid(), now(), now(), $1, 'reader-' || i || '@example.test', true, '{}' from generate_series(1, 20000) i`,
        [project],
      );
      await db.query(
        `insert into campaign_recipients (campaign_id, seq, contact_id)
         select $1, (row_number() over (order by id))::int - 1, id from contacts where project_id = $2`,
        [campaign, project],
      );
      await db.query('analyze contacts, campaign_recipients');
      const sql = recipientRowsSql(marketingRefusalSql('c', null).sql, 'null', 'r.campaign_id = $1 and r.seq >= $2 and r.seq < $3');
      const { rows } = await db.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`explain (format json) ${sql}`, [campaign, 5000, 5500]);
      const contacts = nodesOf(rows[0]!['QUERY PLAN'][0]!.Plan).filter((node) => node['Relation Name'] === 'contacts');
      expect(contacts.length).toBeGreaterThan(0);
      for (const node of contacts) expect(node).toMatchObject({ 'Node Type': 'Index Scan', 'Index Name': 'contacts_pkey' });

      const read = await db.query<{ id: string; email: string }>(sql, [campaign, 5000, 5500]);
      expect(read.rows).toHaveLength(500);
      expect(read.rows.every((r) => r.email.startsWith('reader-'))).toBe(true);
    } finally {
      await db.query('rollback');
    }
  });
});
