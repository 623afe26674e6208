import type { Client } from 'pg';
import { startStack, type TestStack } from '../helpers/stack';
import { plansAfter } from '../helpers/trigger-plans';
import { tenant, type Tenant } from '../helpers/tenants';
import { addContact, addStep, createWorkflow, linearWorkflow, startExecution } from '../automation/helpers';
import { HEARD_NAMES_BACKFILL } from '../../src/db/migrations/0153-heard-event-names';
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
  // PL/pgSQL plans the trigger's statement once per connection, with the sizes of its first run (migration 0157).
  it('asks once per name and project of a statement, on a connection whose first insert was of one event', async () => {
    const t = await tenant(stack);
    const res = await t.c.track({ email: 'heard@example.test', event: 'browsed' }).expect(200);
    const copies = (c: Client, n: number) =>
      c.query(
        `insert into events (id, created_at, project_id, contact_id, name, data)
         select gen_random_uuid(), now(), "project_id", "contact_id", "name", "data" from events cross join generate_series(1, $2::int)
         where "id" = $1`,
        [res.body.data.event, n],
      );
    const plans = await plansAfter(
      stack,
      (c) => copies(c, 1),
      (c) => copies(c, 5),
    );
    const outbox = plans.find((plan) => plan.includes('insert into "event_outbox"'));
    expect(outbox?.match(/on heard_event_names h\b[^\n]*loops=(\d+)/)?.[1]).toBe('1');
  });

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

  it("the migration's backfill finds what automations, their versions and their active executions name", async () => {
    const t = await tenant(stack);
    const { workflow, stepIds } = await linearWorkflow(t, [['WAIT_FOR_EVENT', { eventName: 'order.shipped' }], ['EXIT']], {
      eventName: 'order.paid',
      goal: { event: 'order.reviewed' },
    });
    // Runs version 1 (no worker takes it here: it stays RUNNING, with its definition).
    await startExecution(t, workflow.id, { contactId: await addContact(t, 'early@example.test') });
    // Version 2 names other events; version 1 and the execution still name the first ones.
    await t.c
      .patch(`/workflows/${workflow.id}/steps/${stepIds[0]}`)
      .send({ config: { eventName: 'order.changed' } })
      .expect(200);
    await t.c
      .patch(`/workflows/${workflow.id}`)
      .send({ goal: { event: 'order.converted' } })
      .expect(200);
    const names = async () =>
      (await query<{ name: string }>(stack, 'select name from heard_event_names where project_id = ? order by name', [t.project.id])).map(
        (r) => r.name,
      );
    const all = ['order.changed', 'order.converted', 'order.paid', 'order.reviewed', 'order.shipped'];
    expect(await names()).toEqual(all);

    await query(stack, 'delete from heard_event_names where project_id = ?', [t.project.id]);
    await query(stack, HEARD_NAMES_BACKFILL);
    expect(await names()).toEqual(all);
    // Only the active executions' definitions count: ended, order.reviewed is named by nothing else.
    await query(stack, `update automation_executions set status = 'CANCELLED' where automation_id = ?`, [workflow.id]);
    await query(stack, 'delete from heard_event_names where project_id = ?', [t.project.id]);
    await query(stack, HEARD_NAMES_BACKFILL);
    expect(await names()).toEqual(all.filter((n) => n !== 'order.reviewed'));
  });
});
