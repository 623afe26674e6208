import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startStack, type TestStack } from '../helpers/stack';
import { gatewayFor, startWorker } from '../helpers/temporal';
import { timeSkippingEnv } from '../helpers/temporal-env';
import { sleeping } from '../helpers/time-skipping';
import { waitFor } from '../helpers/wait';
import { sql } from '../helpers/seed';
import { segmentComputeWorkflowId, segmentTrackingWorkflowId } from '../../workflows/segments/ids';
import { addContact, createSegment, proPlan, segmentEvents } from './helpers';
import { tenant, type Tenant } from '../helpers/tenants';

const MINUTE = 60_000;
const INTERVAL = 15 * MINUTE;

let env: TestWorkflowEnvironment;
let stack: TestStack;
beforeAll(async () => {
  env = await timeSkippingEnv();
  stack = await startStack({
    temporal: gatewayFor(env, `segments-${randomBytes(4).toString('hex')}`),
    worker: (deps) => startWorker(deps, env.nativeConnection),
  });
});
afterAll(async () => {
  await stack?.close();
  await env?.teardown();
});

const tracking = (segmentId: string) => env.client.workflow.getHandle(segmentTrackingWorkflowId(segmentId));

/** Computations finished so far, read from the tracking loop's history (its current run). */
async function computations(segmentId: string): Promise<number> {
  const history = await tracking(segmentId).fetchHistory();
  return (history.events ?? []).filter((e) => e.childWorkflowExecutionCompletedEventAttributes).length;
}

const reach = (segmentId: string, n: number) =>
  waitFor(`${n} computations`, async () => ((await computations(segmentId)) >= n ? true : undefined));

/** Lets real time pass for workers to act on anything already due; nothing new is due without env.sleep. */
const settle = () => new Promise((r) => setTimeout(r, 500));

/** A tracked segment whose loop has computed once and sleeps until the next (see `sleeping`: test 2 terminates it). */
async function trackedPro(t: Tenant) {
  const s = await createSegment(t, { name: 'Pro', condition: proPlan, trackMembership: true });
  await reach(s.id, 1);
  await sleeping(env, segmentTrackingWorkflowId(s.id));
  return s;
}

describe('segment tracking loop (time-skipping)', () => {
  it('computes at start, then every 15 minutes on a durable timer, without real waiting', async () => {
    const started = Date.now();
    const t = await tenant(stack);
    await addContact(t, 'ann@example.test', { plan: 'pro' });
    const s = await trackedPro(t);
    expect((await segmentEvents(stack, t.project.id)).map((e) => e.name)).toEqual(['segment.pro.entry']);

    const bob = await addContact(t, 'bob@example.test', { plan: 'pro' });
    await env.sleep(INTERVAL - MINUTE);
    await settle();
    expect(await computations(s.id)).toBe(1);
    expect(await segmentEvents(stack, t.project.id)).toHaveLength(1);

    await env.sleep(2 * MINUTE);
    await reach(s.id, 2);
    expect((await segmentEvents(stack, t.project.id)).at(-1)).toMatchObject({ name: 'segment.pro.entry', contact_id: bob });

    await addContact(t, 'bob@example.test', { plan: 'free' });
    await env.sleep(INTERVAL);
    await reach(s.id, 3);
    expect((await segmentEvents(stack, t.project.id)).at(-1)).toMatchObject({ name: 'segment.pro.exit', contact_id: bob });
    expect((await t.c.get(`/segments/${s.id}`).expect(200)).body.memberCount).toBe(1);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('stops when trackMembership turns false: no further computations', async () => {
    const t = await tenant(stack);
    await addContact(t, 'ann@example.test', { plan: 'pro' });
    const s = await trackedPro(t);
    await t.c.patch(`/segments/${s.id}`).send({ trackMembership: false }).expect(200);
    expect((await tracking(s.id).describe()).status.name).toBe('TERMINATED');

    await addContact(t, 'bob@example.test', { plan: 'pro' });
    await env.sleep(2 * INTERVAL);
    await settle();
    expect((await segmentEvents(stack, t.project.id)).map((e) => e.name)).toEqual(['segment.pro.entry']);
  });

  it('ends by itself at its next computation when the segment row is gone', async () => {
    const t = await tenant(stack);
    await addContact(t, 'ann@example.test', { plan: 'pro' });
    const s = await trackedPro(t);
    // As when Temporal was unreachable during DELETE: the row is gone but the loop still runs.
    await sql(stack, 'delete from segments where id = ?', [s.id]);
    await env.sleep(INTERVAL);
    await waitFor('the loop to end', async () => ((await tracking(s.id).describe()).status.name === 'COMPLETED' ? true : undefined));
    const compute = await env.client.workflow.getHandle(segmentComputeWorkflowId(s.id)).describe();
    expect(compute.status.name).toBe('COMPLETED');
  });

  it('continues as new, keeping its workflow id', async () => {
    const t = await tenant(stack);
    await addContact(t, 'ann@example.test', { plan: 'pro' });
    const s = await trackedPro(t);
    const first = await tracking(s.id).describe();
    await env.sleep(20 * INTERVAL + MINUTE);
    const latest = await waitFor('a new run', async () => {
      const d = await tracking(s.id).describe();
      return d.runId !== first.runId ? d : undefined;
    });
    expect(latest.status.name).toBe('RUNNING');
    const firstRun = env.client.workflow.getHandle(segmentTrackingWorkflowId(s.id), first.runId);
    expect((await firstRun.describe()).status.name).toBe('CONTINUED_AS_NEW');
    expect(await segmentEvents(stack, t.project.id)).toHaveLength(1);
  });
});
