import { Client as Postgres } from 'pg';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { startStack, type TestStack } from '../helpers/stack';
import { startWorker } from '../helpers/temporal';
import { sql } from '../helpers/seed';
import { addContact, csv, projectState, settled, upload } from './helpers';
import { tenant } from '../helpers/tenants';
import { waitFor } from '../helpers/wait';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
});
afterAll(() => stack?.close());

/** Holds chunk `seq` of the job in an open transaction: its activity blocks on claiming it until `release`. */
async function holdChunk(jobId: string, seq: number) {
  const locker = new Postgres({ connectionString: stack.deps.config.DATABASE_URL });
  await locker.connect();
  await locker.query('begin');
  await locker.query('select 1 from job_chunks where job_id = $1 and seq = $2 for update', [jobId, seq]);
  return { release: async () => (await locker.query('rollback'), await locker.end()) };
}

/**
 * The workflow has handled a chunk's failure: it ended, or its last task came after the failure and scheduled
 * no activity, leaving it waiting on the chunks still running.
 */
const failureHandled = (handle: WorkflowHandle) =>
  waitFor('the workflow to handle the failed chunk', async () => {
    const events = (await handle.fetchHistory()).events ?? [];
    const failed = events.findIndex((e) => e.activityTaskFailedEventAttributes);
    const answered = events.findLastIndex((e) => e.workflowTaskCompletedEventAttributes);
    const waiting = failed >= 0 && answered > failed && !events.slice(answered + 1).some((e) => e.activityTaskScheduledEventAttributes);
    return waiting || events.at(-1)?.workflowExecutionFailedEventAttributes ? true : undefined;
  });

describe('job states', () => {
  it('is waiting until a worker runs it; a chunk that cannot be read fails the job with the reason once the chunks beside it finish, keeping what they did', async () => {
    const t = await tenant(stack);
    const rows = Array.from({ length: 1200 }, (_, i) => `w${i}@example.test`);
    const { jobId } = (await upload(t, csv('email', ...rows)).expect(202)).body;
    expect((await t.c.get(`/contacts/import/${jobId}`).expect(200)).body).toEqual({
      id: jobId,
      state: 'waiting',
      progress: 0,
      result: { totalRows: 1200, created: 0, updated: 0, skipped: 0, failed: 0, errors: [] },
    });
    await sql(stack, `update job_chunks set items = '{"rows": "garbage"}' where job_id = ? and seq = 1`, [jobId]);

    // Chunk 3 (rows 1001–1200) is held while chunk 2 fails beside it: the job is not failed while it may still write.
    const held = await holdChunk(jobId, 2);
    const worker = await startWorker(stack.deps);
    const handle = stack.deps.temporal.client.workflow.getHandle(jobId);
    try {
      try {
        await failureHandled(handle);
        expect((await t.c.get(`/contacts/import/${jobId}`).expect(200)).body).toMatchObject({ state: 'active', progress: 41 });
      } finally {
        await held.release();
      }
      const job = await settled(t, `/contacts/import/${jobId}`);
      expect(job).toEqual({
        id: jobId,
        state: 'failed',
        // Chunks 1 and 3 ran; chunk 2 (rows 501–1000), beside chunk 3, could not.
        progress: 58,
        result: { totalRows: 1200, created: 700, updated: 0, skipped: 0, failed: 0, errors: [] },
        failedReason: expect.stringMatching(/^Processing rows 501–1000 failed: stored import rows do not read: /),
      });
      await expect(handle.result()).rejects.toThrow();
      expect((await handle.describe()).status.name).toBe('FAILED');
    } finally {
      await worker.stop();
    }
    const [count] = await sql<{ n: number }>(stack, 'select count(*)::int as n from contacts where project_id = ?', [t.project.id]);
    expect(count!.n).toBe(700);
  });
});

describe('while Temporal is unreachable', () => {
  // Nothing listens on port 1: every Temporal call fails as it would during an outage.
  const connection = Connection.lazy({ address: '127.0.0.1:1' });
  let down: TestStack;
  beforeAll(async () => {
    down = await startStack({ temporal: { client: new Client({ connection }), taskQueue: 'unreachable', searchAttributes: true } });
  });
  afterAll(async () => {
    await down?.close();
    await connection.close();
  });

  it('answers 503 to an import or a bulk operation and keeps no job', async () => {
    const t = await tenant(down);
    const ann = await addContact(t, 'ann@example.test');
    const before = await projectState(down, t.project.id);
    // Side by side: each waits out the client's connection attempts.
    const [imported, unsubscribed] = await Promise.all([
      upload(t, csv('email', 'bob@example.test')),
      t.c.post('/contacts/bulk-unsubscribe').send({ contactIds: [ann] }),
    ]);
    for (const res of [imported, unsubscribed]) {
      expect(res.status).toBe(503);
      expect(res.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', statusCode: 503 });
    }
    expect(await projectState(down, t.project.id)).toEqual(before);
    expect(await sql(down, 'select 1 from job_chunks c join jobs j on j.id = c.job_id where j.project_id = ?', [t.project.id])).toEqual([]);
  });
});
