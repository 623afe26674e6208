import { cappedUntilSql } from '../../src/modules/consent/frequency-cap';
import { createProject, signupUser } from '../helpers/fixtures';
import { seedContact, sql } from '../helpers/seed';
import { startStack, type TestStack } from '../helpers/stack';
import { planNodes, type ExplainRow, type PlanNode } from '../helpers/plans';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

/** The plan's nodes reading `emails`, with the tables' sizes left out: a test's few rows would be read whole. */
async function emailReads(query: string, params: unknown[]): Promise<PlanNode[]> {
  return stack.deps.orm.em.fork().transactional(async (tx) => {
    await tx.execute(`select set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`);
    const rows = await tx.execute<ExplainRow[]>(`explain (analyze, format json) ${query}`, params);
    return planNodes(rows).filter((node) => node['Relation Name'] === 'emails');
  });
}

// One index holds a contact's emails, `marketing` its second column (migration 0159): the frequency cap reads
// only the contact's marketing emails, and a contact's deletion finds all of them.
describe("the index of a contact's emails", () => {
  it("gives the frequency cap the contact's marketing emails newest first without visiting its transactional mail", async () => {
    const owner = await signupUser(stack);
    const { id: projectId } = await createProject(stack, owner);
    const contact = await seedContact(stack, projectId);
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
    const emails = [
      ...Array.from({ length: 30 }, (_, i) => ({ marketing: false, source_type: 'TRANSACTIONAL', created_at: hoursAgo(i) })),
      ...[5, 20, 40].map((h) => ({ marketing: true, source_type: 'CAMPAIGN', created_at: hoursAgo(h + 0.5) })),
    ];
    await sql(
      stack,
      `insert into emails (id, created_at, updated_at, project_id, contact_id, to_address, from_address, subject, html, size_bytes, status, source_type, marketing)
       select gen_random_uuid(), r.created_at, now(), ?, ?, 'to@example.test', 'from@example.test', 'Hello', '<p>Hello</p>', 100, 'SENT', r.source_type, r.marketing
       from jsonb_to_recordset(?::jsonb) as r(created_at timestamptz, source_type text, marketing boolean)`,
      [projectId, contact.id, JSON.stringify(emails)],
    );
    const capped = cappedUntilSql(
      { sql: '?::uuid', params: [contact.id] },
      { maxEmails: 2, windowDays: 7 },
      { sql: 'now()', params: [] },
      { sql: 'false', params: [] },
    );

    const reads = await emailReads(`select ${capped.sql} as "until"`, capped.params);
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ 'Node Type': 'Index Scan', 'Index Name': 'emails_contact_marketing_created_index', 'Actual Rows': 2 });
    expect(reads[0]!['Index Cond']).toContain('marketing');
    expect(reads[0]!['Rows Removed by Filter'] ?? 0).toBe(0);
    // The second newest marketing email leaves the 7-day window first.
    const [{ until }] = await sql<{ until: Date }>(stack, `select ${capped.sql} as "until"`, capped.params);
    expect(new Date(until).getTime()).toBe(new Date(emails[31]!.created_at).getTime() + 7 * 86_400_000);

    const ofContact = await emailReads(`select count(*) from emails where "contact_id" = ?`, [contact.id]);
    expect(ofContact.map((node) => node['Index Name'])).toEqual(['emails_contact_marketing_created_index']);
    expect(ofContact[0]!['Actual Rows']).toBe(33);
  });
});
