import { startStack, type TestStack } from '../helpers/stack';
import { tenant, type Tenant } from '../helpers/tenants';
import { addStep, createWorkflow } from '../automation/helpers';
import { SELECTS } from '../../src/modules/webhooks/stream';
import { query } from './helpers';

/**
 * Only the events a consumer can act on enter the outbox (docs/architecture.md "Events: the outbox"): those an
 * automation of the project names, from the save on and after it changes, and those an enabled webhook endpoint of
 * the project selects. No dispatcher runs here, so what entered the outbox stays there.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' }, terminateWorkflows: true });
});
afterAll(() => stack.close());

/** Tracks `event` for a contact of `t`; whether its event row entered the outbox. */
async function queued(t: Tenant, event: string): Promise<boolean> {
  const res = await t.c.track({ email: 'heard@example.test', event }).expect(200);
  const [row] = await query<{ queued: boolean }>(
    stack,
    'select exists (select 1 from event_outbox o where o.event_id = e.id) as queued from events e where e.id = ?',
    [res.body.data.event],
  );
  return row!.queued;
}

describe('the events outbox', () => {
  it('records an event nothing acts on without queueing it', async () => {
    const t = await tenant(stack);
    expect(await queued(t, 'browsed')).toBe(false);
    expect(await query(stack, 'select name from events where project_id = ?', [t.project.id])).toEqual([{ name: 'browsed' }]);
  });

  it("queues the names an automation's trigger, WAIT_FOR_EVENT steps and goal name, and keeps hearing them after it changes", async () => {
    const t = await tenant(stack);
    const other = await tenant(stack);
    const workflow = await createWorkflow(t, { eventName: 'order.paid', goal: { event: 'order.reviewed' } });
    const wait = await addStep(t, workflow.id, 'WAIT_FOR_EVENT', { eventName: 'order.shipped' });
    for (const name of ['order.paid', 'order.reviewed', 'order.shipped']) expect([name, await queued(t, name)]).toEqual([name, true]);
    expect(await queued(t, 'browsed')).toBe(false);
    // Another project's automation is not this one's.
    expect(await queued(other, 'order.paid')).toBe(false);

    // Executions already running keep the definition they started with: what it named is still heard.
    await t.c.delete(`/workflows/${workflow.id}/steps/${wait.id}`).expect(204);
    await t.c
      .patch(`/workflows/${workflow.id}`)
      .send({ triggerConfig: { eventName: 'order.refunded' }, goal: null })
      .expect(200);
    for (const name of ['order.refunded', 'order.paid', 'order.reviewed', 'order.shipped'])
      expect([name, await queued(t, name)]).toEqual([name, true]);
  });

  it('queues what an enabled webhook endpoint of the project selects, by name or prefix', async () => {
    const t = await tenant(stack);
    const endpoint = (
      await t.c
        .post('/webhook-endpoints')
        .send({ url: 'http://127.0.0.1:9/hook', events: ['order.*', 'signup'] })
        .expect(201)
    ).body as { id: string };
    expect(await queued(t, 'order.paid')).toBe(true);
    expect(await queued(t, 'signup')).toBe(true);
    expect(await queued(t, 'signup.later')).toBe(false);
    expect(await queued(t, 'browsed')).toBe(false);

    await t.c.patch(`/webhook-endpoints/${endpoint.id}`).send({ enabled: false }).expect(200);
    expect(await queued(t, 'order.paid')).toBe(false);

    await t.c.patch(`/webhook-endpoints/${endpoint.id}`).send({ enabled: true, events: [] }).expect(200);
    expect(await queued(t, 'browsed')).toBe(true);
  });

  it("asks an endpoint's patterns as the webhook stream does", async () => {
    const rows = await query<{ events: string[]; name: string; stream: boolean; outbox: boolean }>(
      stack,
      `select ep."events", e."name", ${SELECTS} as "stream", webhook_selects(ep."events", e."name") as "outbox"
       from (values ('[]'::jsonb), ('["order.*"]'), ('["signup"]'), ('["order.*", "signup"]'), ('["*"]'), ('["order.paid"]'), ('["order*"]'))
         ep ("events")
       cross join (values ('order.paid'), ('order'), ('order.'), ('orders'), ('signup'), ('signup.later'), ('ord'), ('')) e ("name")`,
    );
    expect(rows).toHaveLength(56);
    expect(rows.filter((r) => r.stream !== r.outbox)).toEqual([]);
    expect(rows.filter((r) => r.stream).length).toBeGreaterThan(10);
    expect(rows.filter((r) => !r.stream).length).toBeGreaterThan(10);
  });
});
