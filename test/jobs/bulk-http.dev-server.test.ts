import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { startWorker } from '../helpers/temporal';
import { sql } from '../helpers/seed';
import { addContact, contactsOf, eventsOf, projectState, settled } from './helpers';
import { tenant, type Tenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ worker: startWorker, terminateWorkflows: true });
});
afterAll(() => stack?.close());

const poll = (jobId: string) => `/contacts/bulk/${jobId}`;

async function bulk(t: Tenant, operation: string, contactIds: string[]) {
  const res = await t.c.post(`/contacts/bulk-${operation}`).send({ contactIds });
  expect(res.status).toBe(202);
  expect(res.body).toEqual({ jobId: expect.stringMatching(/^bulk:[0-9a-f]{8}-[0-9a-f-]{27}$/) });
  return settled<Record<string, unknown>>(t, poll(res.body.jobId));
}

/** Two projects: `t` with ann and bob subscribed and cat unsubscribed, `other` with one contact. */
async function world() {
  const t = await tenant(stack);
  const other = await tenant(stack);
  const ann = await addContact(t, 'ann@example.test');
  const bob = await addContact(t, 'bob@example.test');
  const cat = await addContact(t, 'cat@example.test', { subscribed: false });
  const foreign = await addContact(other, 'ann@example.test');
  return { t, other, ann, bob, cat, foreign };
}

describe('POST /contacts/bulk-*', () => {
  it("unsubscribes the project's contacts, emitting one event per flip; another project's contact is a failure and untouched", async () => {
    const { t, other, ann, bob, cat, foreign } = await world();
    const missing = randomUUID();
    const job = await bulk(t, 'unsubscribe', [ann, bob, cat, foreign, missing, ann]);
    expect(job).toEqual({
      id: expect.any(String),
      state: 'completed',
      progress: 100,
      result: {
        operation: 'unsubscribe',
        totalRequested: 5,
        successCount: 2,
        unchangedCount: 1,
        failureCount: 2,
        errors: [
          { contactId: foreign, error: 'Contact not found' },
          { contactId: missing, error: 'Contact not found' },
        ],
      },
    });
    expect((await contactsOf(stack, t.project.id)).map((c) => c.subscribed)).toEqual([false, false, false]);
    expect(await eventsOf(stack, t.project.id)).toEqual([
      { name: 'contact.unsubscribed', contact_id: ann },
      { name: 'contact.unsubscribed', contact_id: bob },
    ]);
    expect(await contactsOf(stack, other.project.id)).toEqual([{ id: foreign, email: 'ann@example.test', subscribed: true, data: {} }]);
    expect(await eventsOf(stack, other.project.id)).toEqual([]);
  });

  it('subscribes, counting contacts already subscribed as unchanged', async () => {
    const { t, ann, cat, foreign } = await world();
    const job = await bulk(t, 'subscribe', [ann, cat, foreign]);
    expect(job.result).toEqual({
      operation: 'subscribe',
      totalRequested: 3,
      successCount: 1,
      unchangedCount: 1,
      failureCount: 1,
      errors: [{ contactId: foreign, error: 'Contact not found' }],
    });
    expect(await eventsOf(stack, t.project.id)).toEqual([{ name: 'contact.subscribed', contact_id: cat }]);
  });

  it("deletes the project's contacts with their events, and nothing of another project", async () => {
    const { t, other, ann, bob, cat, foreign } = await world();
    await bulk(t, 'unsubscribe', [ann]);
    const job = await bulk(t, 'delete', [ann, cat, foreign]);
    expect(job.result).toEqual({
      operation: 'delete',
      totalRequested: 3,
      successCount: 2,
      unchangedCount: 0,
      failureCount: 1,
      errors: [{ contactId: foreign, error: 'Contact not found' }],
    });
    expect((await contactsOf(stack, t.project.id)).map((c) => c.id)).toEqual([bob]);
    expect(await eventsOf(stack, t.project.id)).toEqual([]);
    expect((await contactsOf(stack, other.project.id)).map((c) => c.id)).toEqual([foreign]);
  });

  it('takes 1,000 IDs in chunks with a summary each', async () => {
    const t = await tenant(stack);
    const known = await addContact(t, 'known@example.test');
    const ids = [known, ...Array.from({ length: 999 }, () => randomUUID())];
    const res = await t.c.post('/contacts/bulk-unsubscribe').send({ contactIds: ids }).expect(202);
    const job = await settled<{ errors: unknown[] }>(t, poll(res.body.jobId));
    expect(job.result).toMatchObject({ totalRequested: 1000, successCount: 1, unchangedCount: 0, failureCount: 999 });
    expect(job.result.errors).toHaveLength(999);
    const handle = stack.deps.temporal.client.workflow.getHandle(res.body.jobId);
    expect(await (await handle.describe()).staticSummary()).toBe(`Bulk unsubscribe of 1,000 contacts in project ${t.project.id}`);
    const summaries = ((await handle.fetchHistory()).events ?? [])
      .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'processBulkChunk')
      .map((e) => JSON.parse(Buffer.from(e.userMetadata!.summary!.data!).toString()));
    expect(summaries).toEqual(['contacts 1–250', 'contacts 251–500', 'contacts 501–750', 'contacts 751–1000']);
  });

  it('refuses a missing, empty, malformed or oversized contactIds with 422, queueing and changing nothing', async () => {
    const { t, ann } = await world();
    const before = await projectState(stack, t.project.id);
    const bodies: unknown[] = [
      {},
      { contactIds: [] },
      { contactIds: ['not-a-uuid'] },
      { contactIds: ann },
      { contactIds: [ann, ...Array.from({ length: 1000 }, () => randomUUID())] },
    ];
    for (const operation of ['subscribe', 'unsubscribe', 'delete']) {
      for (const body of bodies) {
        const res = await t.c.post(`/contacts/bulk-${operation}`).send(body as object);
        expect(res.status).toBe(422);
        expect(res.body.error).toMatchObject({
          code: 'VALIDATION_ERROR',
          statusCode: 422,
          errors: [expect.objectContaining({ field: expect.stringMatching(/^contactIds/) })],
        });
      }
    }
    const tooMany = await t.c.post('/contacts/bulk-delete').send(bodies[4] as object);
    expect(tooMany.body.error.errors[0]).toMatchObject({ field: 'contactIds', message: 'At most 1,000 contact IDs per call' });
    expect(await projectState(stack, t.project.id)).toEqual(before);
  });
});

describe('GET /contacts/bulk/{jobId}', () => {
  it("answers 404 for another project's job, an unknown one, an import job's ID and a malformed ID", async () => {
    const { t, other, ann } = await world();
    const res = await t.c
      .post('/contacts/bulk-subscribe')
      .send({ contactIds: [ann] })
      .expect(202);
    await settled(t, poll(res.body.jobId));
    const uuid = res.body.jobId.slice('bulk:'.length);
    for (const id of [res.body.jobId, `bulk:${randomUUID()}`, `import:${uuid}`, 'bulk:x', uuid]) {
      const answer = await other.c.get(poll(id));
      expect(answer.status).toBe(404);
      expect(answer.body.error).toMatchObject({ code: 'NOT_FOUND' });
    }
    const [row] = await sql<{ n: number }>(stack, 'select count(*)::int as n from jobs where project_id = ?', [other.project.id]);
    expect(row!.n).toBe(0);
  });
});
