import { startStack, type TestStack } from '../helpers/stack';
import { startWorker } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';
import { sql } from '../helpers/seed';
import { ProjectIdKey } from '../../workflows/search-attributes';
import { COMPUTE_CHUNK, segmentComputeWorkflowId, segmentTrackingWorkflowId } from '../../workflows/segments/ids';
import { addContact, createSegment, proPlan, segmentEvents } from './helpers';
import { tenant, type Tenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  // The requests here wait for their computations whatever the machine's load: the 202 of a computation that
  // outlasts the wait is segments-http.test.ts's.
  stack = await startStack({ worker: startWorker, terminateWorkflows: true, env: { SEGMENT_COMPUTE_WAIT_SECONDS: '300' } });
});
afterAll(() => stack?.close());

const handle = (workflowId: string) => stack.deps.temporal.client.workflow.getHandle(workflowId);

/** The tracking loop computes as soon as it starts; tests compare against a settled first computation. */
async function firstComputationDone(segmentId: string): Promise<void> {
  await waitFor('the first computation', async () => {
    const d = await handle(segmentComputeWorkflowId(segmentId))
      .describe()
      .catch(() => undefined);
    return d?.status.name === 'COMPLETED' ? true : undefined;
  });
}

const members = async (segmentId: string) =>
  (
    await sql<{ email: string }>(
      stack,
      'select c.email from segment_members m join contacts c on c.id = m.contact_id where m.segment_id = ? order by c.email',
      [segmentId],
    )
  ).map((r) => r.email);

async function trackedPro(t: Tenant) {
  const s = await createSegment(t, { name: 'Pro Users!', condition: proPlan, trackMembership: true });
  await firstComputationDone(s.id);
  return s;
}

describe('segment computation (dev server, real worker)', () => {
  it('enters the initial members as soon as tracking starts, then computes entries and exits on demand', async () => {
    const t = await tenant(stack);
    const ann = await addContact(t, 'ann@example.test', { plan: 'pro' });
    const bob = await addContact(t, 'bob@example.test', { plan: 'free' });
    const cat = await addContact(t, 'cat@example.test', { plan: 'pro' });
    const s = await trackedPro(t);
    const data = { segmentId: s.id, segmentName: 'Pro Users!' };
    expect(await segmentEvents(stack, t.project.id)).toEqual(
      expect.arrayContaining([
        { name: 'segment.pro-users.entry', contact_id: ann, data },
        { name: 'segment.pro-users.entry', contact_id: cat, data },
      ]),
    );
    expect(await members(s.id)).toEqual(['ann@example.test', 'cat@example.test']);

    await addContact(t, 'ann@example.test', { plan: 'free' });
    await addContact(t, 'bob@example.test', { plan: 'pro' });
    const res = await t.c.post(`/segments/${s.id}/compute`).expect(200);
    expect(res.body).toEqual({ entered: 1, exited: 1, memberCount: 2 });
    expect((await segmentEvents(stack, t.project.id)).slice(2)).toEqual([
      { name: 'segment.pro-users.entry', contact_id: bob, data },
      { name: 'segment.pro-users.exit', contact_id: ann, data },
    ]);
    expect(await members(s.id)).toEqual(['bob@example.test', 'cat@example.test']);
    expect((await t.c.get(`/segments/${s.id}`).expect(200)).body.memberCount).toBe(2);

    const again = await t.c.post(`/segments/${s.id}/compute`).expect(200);
    expect(again.body).toEqual({ entered: 0, exited: 0, memberCount: 2 });
    expect(await segmentEvents(stack, t.project.id)).toHaveLength(4);
  });

  it('tracks a condition on data no contact has yet, entering contacts once it arrives (docs/filters.md)', async () => {
    const t = await tenant(stack);
    await addContact(t, 'early@example.test', { other: 1 });
    const s = await trackedPro(t);
    expect(s.memberCount).toBe(0);
    expect(await members(s.id)).toEqual([]);

    const ann = await addContact(t, 'ann@example.test', { plan: 'pro' });
    await t.c.track({ event: 'signup', email: 'bob@example.test', data: { plan: 'free' } }).expect(200);
    expect((await t.c.post(`/segments/${s.id}/compute`).expect(200)).body).toEqual({ entered: 1, exited: 0, memberCount: 1 });
    expect(await members(s.id)).toEqual(['ann@example.test']);
    expect(await segmentEvents(stack, t.project.id)).toEqual([
      { name: 'segment.pro-users.entry', contact_id: ann, data: { segmentId: s.id, segmentName: 'Pro Users!' } },
    ]);
  });

  it('walks a project larger than one chunk, entering each match exactly once', async () => {
    const t = await tenant(stack);
    const total = 2 * COMPUTE_CHUNK + 101;
    // Volume only: thousands of contacts through POST /contacts would dominate the run, so they are inserted
    // as that endpoint stores them.
    await sql(
      stack,
      `insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
       select gen_random_uuid(), now(), now(), ?, 'c' || i || '@example.test', true,
              jsonb_build_object('plan', case when i % 3 = 0 then 'pro' else 'free' end)
       from generate_series(1, ?) i`,
      [t.project.id, total],
    );
    await addContact(t, 'typed@example.test', { plan: 'free' });
    const s = await trackedPro(t);
    const matching = Math.floor(total / 3);
    expect((await t.c.get(`/segments/${s.id}`).expect(200)).body.memberCount).toBe(matching);
    expect(await segmentEvents(stack, t.project.id)).toHaveLength(matching);
    const [distinct] = await sql<{ n: number }>(
      stack,
      "select count(distinct contact_id)::int as n from events where project_id = ? and name = 'segment.pro-users.entry'",
      [t.project.id],
    );
    expect(distinct!.n).toBe(matching);
    expect((await t.c.post(`/segments/${s.id}/compute`).expect(200)).body).toEqual({ entered: 0, exited: 0, memberCount: matching });
  });

  it('runs both workflows under the ProjectId search attribute with summaries, and stops tracking with the flag or DELETE', async () => {
    const t = await tenant(stack);
    await addContact(t, 'ann@example.test', { plan: 'pro' });
    const s = await trackedPro(t);
    const { client } = stack.deps.temporal;

    const listed = await waitFor('the visibility records', async () => {
      const found: string[] = [];
      for await (const wf of client.workflow.list({ query: `ProjectId="${t.project.id}"` })) found.push(wf.workflowId);
      return found.length >= 2 ? found.sort() : undefined;
    });
    expect(listed).toEqual([segmentComputeWorkflowId(s.id), segmentTrackingWorkflowId(s.id)].sort());
    const tracking = await handle(segmentTrackingWorkflowId(s.id)).describe();
    expect(tracking.typedSearchAttributes.get(ProjectIdKey)).toBe(t.project.id);
    expect(await tracking.staticSummary()).toBe(`Track membership of segment ${s.id} every 15 minutes (project ${t.project.id})`);
    expect(await (await handle(segmentComputeWorkflowId(s.id)).describe()).staticSummary()).toBe(
      `Compute membership of segment ${s.id} (project ${t.project.id})`,
    );

    await t.c.patch(`/segments/${s.id}`).send({ trackMembership: false }).expect(200);
    expect((await handle(segmentTrackingWorkflowId(s.id)).describe()).status.name).toBe('TERMINATED');
    const off = await t.c.post(`/segments/${s.id}/compute`);
    expect([off.status, off.body.error.code]).toEqual([400, 'BAD_REQUEST']);

    await t.c.patch(`/segments/${s.id}`).send({ trackMembership: true }).expect(200);
    expect((await handle(segmentTrackingWorkflowId(s.id)).describe()).status.name).toBe('RUNNING');
    await t.c.delete(`/segments/${s.id}`).expect(204);
    expect((await handle(segmentTrackingWorkflowId(s.id)).describe()).status.name).toBe('TERMINATED');
  });
});
