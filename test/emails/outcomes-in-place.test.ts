import { Client } from 'pg';
import { MARK_SENT } from '../../src/modules/emails/delivery/outcomes';
import { throwawayDatabaseUrl } from '../helpers/database';
import { numbered } from '../helpers/plans';

/**
 * An email's outcome changes no column an index names, and its page has room for the new version, so the
 * update is heap-only: no index entries (migration 0162). Counted by the transaction's own statistics, which
 * PostgreSQL keeps exact until the transaction ends (the shared ones are flushed later).
 */

let db: Client;
beforeAll(async () => {
  // A database of its own: each test's rows are written in a transaction that is rolled back.
  db = new Client({ connectionString: await throwawayDatabaseUrl() });
  await db.connect();
});
afterAll(() => db?.end());

const EMAILS = 400;

async function inTransaction(body: () => Promise<void>): Promise<void> {
  await db.query('begin');
  try {
    await body();
  } finally {
    await db.query('rollback');
  }
}

/** A campaign's batch as the enqueue writes it: every row in one statement, as wide as a campaign email's. */
async function insertCampaignEmails(projectId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `insert into emails (id, created_at, updated_at, project_id, contact_id, to_address, to_name, from_address, from_name, subject,
       size_bytes, status, source_type, campaign_id, marketing, tags)
     select gen_random_uuid(), now(), now(), $1, gen_random_uuid(), 'reader-' || i || '@example.test', 'Reader ' || i,
       'news@example.test', 'The News', 'Spring news for Reader ' || i || ', with everything that happened this month',
       4000, 'PENDING', 'CAMPAIGN', $1, true, '{"issue":"spring"}'
     from generate_series(1, $2) i returning id`,
    [projectId, EMAILS],
  );
  await db.query(
    `insert into email_queue ("email_id", "project_id", "source_type", "priority", "due_at", "attempts", "campaign_id")
     select e.id, $1, 'CAMPAIGN', 2, now(), 1, $1 from emails e where e.project_id = $1`,
    [projectId],
  );
  return rows.map((r) => r.id);
}

const updates = async () =>
  (
    await db.query<{ all: number; heapOnly: number }>(
      `select pg_stat_get_xact_tuples_updated('emails'::regclass)::int as "all",
         pg_stat_get_xact_tuples_hot_updated('emails'::regclass)::int as "heapOnly"`,
    )
  ).rows[0]!;

it('marks a batch of campaign emails SENT in place', async () => {
  await inTransaction(async () => {
    const projectId = crypto.randomUUID();
    const ids = await insertCampaignEmails(projectId);
    const at = new Date().toISOString();
    await db.query(numbered(MARK_SENT), [JSON.stringify(ids.map((id) => ({ id, at })))]);
    const sent = await db.query<{ n: number }>(`select count(*)::int as n from emails where project_id = $1 and status = 'SENT'`, [
      projectId,
    ]);
    expect(sent.rows[0]!.n).toBe(EMAILS);
    expect(await updates()).toEqual({ all: EMAILS, heapOnly: EMAILS });
  });
});

it('keeps a release time on SCHEDULED emails alone', async () => {
  await inTransaction(async () => {
    const insert = (status: string, releaseAt: string | null) =>
      db.query(
        `insert into emails (id, created_at, updated_at, project_id, to_address, from_address, subject, size_bytes, status, source_type,
           scheduled_at, release_at)
         values (gen_random_uuid(), now(), now(), gen_random_uuid(), 'to@example.test', 'from@example.test', 'Later', 100, $1,
           'TRANSACTIONAL', now() + interval '1 hour', $2)`,
        [status, releaseAt],
      );
    await db.query('savepoint s');
    await expect(insert('SCHEDULED', null)).rejects.toThrow(/emails_release_at_scheduled/);
    await db.query('rollback to savepoint s');
    await expect(insert('PENDING', new Date().toISOString())).rejects.toThrow(/emails_release_at_scheduled/);
  });
});
