import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueueEmails, type EmailDraft } from '../../src/modules/emails/enqueue';
import { advanceEmail, emailStatusCounts, type LaterStatus } from '../../src/modules/emails/status';
import { startStack, type TestStack } from '../helpers/stack';
import type { TestProject } from '../helpers/fixtures';
import { seedContact, sql } from '../helpers/seed';
import { emailRow, recipient } from './helpers';
import { newTenant } from '../helpers/tenants';
import { draftTo } from '../helpers/drafts';

// No pump runs here: emails stay where the producer API put them.
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

const em = (): EntityManager => stack.deps.orm.em.fork();

/** Whether advancing the email within the project found a sent email of it. */
const recordEmailStatus = async (em: EntityManager, projectId: string, emailId: string, status: LaterStatus, at?: Date) =>
  (await advanceEmail(em, emailId, status, { at, projectId })) !== null;

async function draftFor(project: TestProject, changes: Partial<EmailDraft> = {}): Promise<EmailDraft> {
  const contact = await seedContact(stack, project.id, recipient());
  return draftTo(project.id, contact, 'hello@example.test', { marketing: true, ...changes });
}

const count = async (projectId: string) =>
  Number((await sql<{ n: string }>(stack, 'select count(*) as n from emails where project_id = ?', [projectId]))[0]!.n);

describe('enqueueEmails', () => {
  it('records each campaign recipient once, whether the same draft comes again later or in the same call', async () => {
    const { project } = await newTenant(stack);
    const campaignId = randomUUID();
    const [a, b] = [await draftFor(project, { campaignId }), await draftFor(project, { campaignId })];
    const first = await enqueueEmails(em(), [a, b, a]);
    expect(first.map((e) => e.created)).toEqual([true, true, false]);
    expect(first[2]!.id).toBe(first[0]!.id);
    const resumed = await enqueueEmails(em(), [b, a]);
    expect(resumed).toEqual([
      { id: first[1]!.id, created: false },
      { id: first[0]!.id, created: false },
    ]);
    expect(await count(project.id)).toBe(2);
    // The same contact in another campaign is another email.
    expect((await enqueueEmails(em(), [{ ...a, campaignId: randomUUID() }]))[0]!.created).toBe(true);
  });

  it('records each workflow step of an execution once', async () => {
    const { project } = await newTenant(stack);
    const workflow = { executionId: randomUUID(), stepId: randomUUID() };
    const draft = await draftFor(project, { sourceType: 'WORKFLOW', workflow });
    const [first] = await enqueueEmails(em(), [draft]);
    const [again] = await enqueueEmails(em(), [draft]);
    expect(again).toEqual({ id: first!.id, created: false });
    const [next] = await enqueueEmails(em(), [{ ...draft, workflow: { ...workflow, stepId: randomUUID() } }]);
    expect(next!.created).toBe(true);
    expect(await count(project.id)).toBe(2);
  });

  it("commits with the caller's transaction, attachments included, or not at all", async () => {
    const { project } = await newTenant(stack);
    const draft = await draftFor(project, {
      attachments: [{ filename: 'a.txt', content: Buffer.from('hello'), contentType: 'text/plain', disposition: 'attachment' }],
    });
    await expect(
      em().transactional(async (tx) => {
        await enqueueEmails(tx, [draft]);
        throw new Error('the producer failed after enqueueing');
      }),
    ).rejects.toThrow('the producer failed');
    expect(await count(project.id)).toBe(0);

    const [done] = await em().transactional((tx) => enqueueEmails(tx, [draft]));
    const attachments = await sql<{ filename: string; content: Buffer }>(stack, 'select * from email_attachments where email_id = ?', [
      done!.id,
    ]);
    expect(attachments.map((a) => [a.filename, a.content.toString()])).toEqual([['a.txt', 'hello']]);
    expect(await emailRow(stack, done!.id)).toMatchObject({ status: 'PENDING', attempts: 0 });
  });
});

describe('email status', () => {
  async function sentEmail(project: TestProject): Promise<string> {
    const [email] = await enqueueEmails(em(), [await draftFor(project)]);
    await sql(stack, `update emails set status = 'SENT', sent_at = now() where id = ?`, [email!.id]);
    return email!.id;
  }

  const statusOf = async (id: string) =>
    (
      await sql<{ status: string; delivered_at: string | null; opened_at: string | null; clicked_at: string | null }>(
        stack,
        'select * from emails where id = ?',
        [id],
      )
    )[0]!;

  it('never moves backwards, while each status still records when it first happened', async () => {
    const { project } = await newTenant(stack);
    const id = await sentEmail(project);
    expect(await recordEmailStatus(em(), project.id, id, 'CLICKED', new Date('2030-01-01T00:00:02Z'))).toBe(true);
    expect(await recordEmailStatus(em(), project.id, id, 'OPENED', new Date('2030-01-01T00:00:01Z'))).toBe(true);
    expect(await recordEmailStatus(em(), project.id, id, 'DELIVERED', new Date('2030-01-01T00:00:00Z'))).toBe(true);
    expect(await recordEmailStatus(em(), project.id, id, 'OPENED', new Date('2030-01-01T00:00:09Z'))).toBe(true);
    const row = await statusOf(id);
    expect(row.status).toBe('CLICKED');
    expect([row.delivered_at, row.opened_at, row.clicked_at].map((t) => new Date(t!).toISOString())).toEqual([
      '2030-01-01T00:00:00.000Z',
      '2030-01-01T00:00:01.000Z',
      '2030-01-01T00:00:02.000Z',
    ]);
    await recordEmailStatus(em(), project.id, id, 'COMPLAINED');
    expect((await statusOf(id)).status).toBe('COMPLAINED');
  });

  it('ignores reports for an email not yet sent, failed, or of another project', async () => {
    const { project } = await newTenant(stack);
    const other = await newTenant(stack);
    const [pending] = await enqueueEmails(em(), [await draftFor(project)]);
    expect(await recordEmailStatus(em(), project.id, pending!.id, 'DELIVERED')).toBe(false);
    await sql(stack, `update emails set status = 'FAILED' where id = ?`, [pending!.id]);
    expect(await recordEmailStatus(em(), project.id, pending!.id, 'DELIVERED')).toBe(false);
    const sent = await sentEmail(project);
    expect(await recordEmailStatus(em(), other.project.id, sent, 'OPENED')).toBe(false);
    expect((await statusOf(sent)).status).toBe('SENT');
  });

  it("counts a campaign's emails by status and by the stages they reached", async () => {
    const { project } = await newTenant(stack);
    const campaignId = randomUUID();
    const emails = await enqueueEmails(em(), await Promise.all([1, 2, 3, 4].map(() => draftFor(project, { campaignId }))));
    await enqueueEmails(em(), [await draftFor(project)]);
    const [a, b, c] = emails.map((e) => e.id);
    await sql(stack, `update emails set status = 'SENT', sent_at = now() where id in (?, ?)`, [a, b]);
    await recordEmailStatus(em(), project.id, a!, 'OPENED');
    await sql(stack, `update emails set status = 'FAILED', failed_at = now() where id = ?`, [c]);
    const counts = await emailStatusCounts(em(), project.id, { campaignId });
    expect(counts.total).toBe(4);
    expect(counts.byStatus).toMatchObject({ PENDING: 1, SENT: 1, OPENED: 1, FAILED: 1, DELIVERED: 0 });
    expect(counts.reached).toMatchObject({ SENT: 2, OPENED: 1, DELIVERED: 0, FAILED: 1 });
    expect((await emailStatusCounts(em(), project.id)).total).toBe(5);
  });
});
