import { Client } from 'pg';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { workflowsPath } from '../../workflows/path';
import { startStack, type TestStack } from '../helpers/stack';
import { startWorker } from '../helpers/temporal';
import { installRuntime } from '../helpers/temporal-env';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { addContact, contactsOf, csv, eventsOf, settled, upload } from './helpers';
import { tenant, type Tenant } from '../helpers/tenants';

let stack: TestStack;
const abandoned: NativeConnection[] = [];

beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
});

afterAll(async () => {
  await stack?.close();
  // A worker given up on keeps a hold on its connection; closing it is refused, so the runtime is left to end it.
  await Promise.all(abandoned.map((c) => c.close().catch(() => undefined)));
});

const ROWS = 1300;
const emailOf = (i: number) => `r${String(i).padStart(4, '0')}@example.test`;

/** 1,300 rows in three chunks (rows 1–500, 501–1000, 1001–1300); row `i` is the (i+1)-th line of the file. */
function bigCsv(overrides: Record<number, string> = {}): string {
  const lines = ['email,plan,subscribed'];
  for (let i = 1; i <= ROWS; i++) lines.push(overrides[i] ?? `${emailOf(i)},pro,`);
  return csv(...lines);
}

/** A worker whose shutdown gives up on in-flight activities after a second, as a killed process would. */
async function fragileWorker() {
  installRuntime();
  const connection = await NativeConnection.connect({ address: stack.deps.config.TEMPORAL_ADDRESS });
  abandoned.push(connection);
  const worker = await Worker.create({
    connection,
    taskQueue: stack.deps.temporal.taskQueue,
    workflowsPath,
    activities: createActivities(stack.deps),
    shutdownGraceTime: '100ms',
    shutdownForceTime: '1s',
  });
  const running = worker.run().catch((err: unknown) => err);
  return { stop: async () => (worker.shutdown(), running) };
}

async function lockContact(contactId: string): Promise<Client> {
  const locker = new Client({ connectionString: stack.deps.config.DATABASE_URL });
  locker.on('error', () => undefined); // the run's teardown may end it
  await locker.connect();
  await locker.query('begin');
  await locker.query('select 1 from contacts where id = $1 for update', [contactId]);
  return locker;
}

/** The chunk's contact write is queued behind the test's row lock, its transaction open. */
const blockedMerge = () =>
  waitFor('the chunk to block on the locked contact', async () => {
    const rows = await sql(
      stack,
      "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%insert into contacts as c%'",
    );
    return rows.length > 0 ? true : undefined;
  });

const chunkDone = (jobId: string, seq: number) =>
  sql<{ done: boolean }>(stack, 'select done_at is not null as done from job_chunks where job_id = ? and seq = ?', [jobId, seq]);

const decode = (data: Uint8Array | null | undefined) => (data ? JSON.parse(Buffer.from(data).toString()) : undefined);

/** The recorded attempt of the chunk activity with this summary, and what it returned. */
async function chunkAttempts(jobId: string, summary: string) {
  const events = (await stack.deps.temporal.client.workflow.getHandle(jobId).fetchHistory()).events ?? [];
  const scheduled = events.find((e) => e.activityTaskScheduledEventAttributes && decode(e.userMetadata?.summary?.data) === summary);
  if (!scheduled) throw new Error(`no activity with summary ${summary}`);
  const of = (id: unknown) => String(id) === String(scheduled.eventId);
  return {
    attempts: events
      .filter((e) => of(e.activityTaskStartedEventAttributes?.scheduledEventId))
      .map((e) => e.activityTaskStartedEventAttributes!.attempt),
    results: events
      .filter((e) => of(e.activityTaskCompletedEventAttributes?.scheduledEventId))
      .map((e) => decode(e.activityTaskCompletedEventAttributes!.result!.payloads![0]!.data)),
  };
}

async function importWithExisting(t: Tenant) {
  // Row 700 (chunk 2) is an existing contact that the CSV unsubscribes: the one flip of the import.
  const keep = await addContact(t, emailOf(700), { data: { plan: 'free', since: 2020 } });
  const res = await upload(t, bigCsv({ 700: `${emailOf(700)},team,false` }), 'resume.csv');
  expect(res.status).toBe(202);
  return { keep, jobId: res.body.jobId as string };
}

describe('contact import when its worker stops mid-import (dev server)', () => {
  it('resumes on another worker: a chunk committed by an attempt that never reported is skipped, nothing repeated or lost', async () => {
    const t = await tenant(stack);
    const { keep, jobId } = await importWithExisting(t);
    expect((await t.c.get(`/contacts/import/${jobId}`).expect(200)).body).toMatchObject({ state: 'waiting', progress: 0 });

    const locker = await lockContact(keep);
    const first = await fragileWorker();
    await blockedMerge();
    expect(await chunkDone(jobId, 0)).toEqual([{ done: true }]);
    // Chunk 3 ran beside chunk 2, whose transaction has claimed it and written up to the locked row; the
    // worker goes away now.
    await waitFor('chunk 3', async () => ((await chunkDone(jobId, 2))[0]?.done ? true : undefined));
    expect(await first.stop()).toBeInstanceOf(Error);
    expect((await t.c.get(`/contacts/import/${jobId}`).expect(200)).body).toMatchObject({ state: 'active', progress: 61 });

    // The abandoned attempt commits after its worker is gone, so its completion is never reported.
    await locker.query('commit');
    await locker.end();
    await waitFor('the abandoned attempt to commit', async () => ((await chunkDone(jobId, 1))[0]?.done ? true : undefined));

    const second = await startWorker(stack.deps);
    try {
      // The abandoned attempt stops heartbeating: Temporal retries it after the 10-second heartbeat timeout.
      const job = await settled(t, `/contacts/import/${jobId}`);
      expect(job).toEqual({
        id: jobId,
        state: 'completed',
        progress: 100,
        result: { totalRows: ROWS, created: ROWS - 1, updated: 1, skipped: 0, failed: 0, errors: [] },
      });
    } finally {
      await second.stop();
    }

    const contacts = await contactsOf(stack, t.project.id);
    expect(contacts).toHaveLength(ROWS);
    expect(new Set(contacts.map((c) => c.email)).size).toBe(ROWS);
    expect(contacts.find((c) => c.id === keep)).toMatchObject({ subscribed: false, data: { plan: 'team', since: 2020 } });
    expect(contacts.filter((c) => c.subscribed)).toHaveLength(ROWS - 1);
    expect(await eventsOf(stack, t.project.id)).toEqual([{ name: 'contact.unsubscribed', contact_id: keep }]);

    // History keeps the attempt that completed: the retry, which found the chunk done and skipped it.
    expect(await chunkAttempts(jobId, 'rows 501–1000')).toEqual({ attempts: [2], results: [false] });
    expect(await chunkAttempts(jobId, 'rows 1001–1300')).toEqual({ attempts: [1], results: [true] });
    const [row] = await sql<{ processed: number; total: number }>(stack, 'select processed, total from jobs where id = ?', [jobId]);
    expect(row).toEqual({ processed: ROWS, total: ROWS });
  });

  it('redoes a chunk whose attempt died before committing, exactly once', async () => {
    const t = await tenant(stack);
    const { keep, jobId } = await importWithExisting(t);
    const locker = await lockContact(keep);
    const first = await fragileWorker();
    await blockedMerge();
    // Chunk 3 runs beside the blocked chunk 2; it is done before the worker dies, so the second worker has only chunk 2 left.
    await waitFor('chunk 3', async () => ((await chunkDone(jobId, 2))[0]?.done ? true : undefined));
    // The process dies mid-chunk: its database session goes with it, and the chunk's writes roll back.
    await sql(
      stack,
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%insert into contacts as c%'",
    );
    await first.stop();
    await locker.query('rollback');
    await locker.end();
    expect(await chunkDone(jobId, 1)).toEqual([{ done: false }]);
    expect(await contactsOf(stack, t.project.id)).toHaveLength(800 + 1);

    const second = await startWorker(stack.deps);
    try {
      const job = await settled(t, `/contacts/import/${jobId}`);
      expect(job.result).toEqual({ totalRows: ROWS, created: ROWS - 1, updated: 1, skipped: 0, failed: 0, errors: [] });
    } finally {
      await second.stop();
    }
    expect(await contactsOf(stack, t.project.id)).toHaveLength(ROWS);
    expect(await eventsOf(stack, t.project.id)).toEqual([{ name: 'contact.unsubscribed', contact_id: keep }]);
  });
});
