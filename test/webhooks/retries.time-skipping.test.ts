import { randomBytes } from 'node:crypto';
import { tenant, type Tenant } from '../helpers/tenants';
import { waitFor } from '../helpers/wait';
import { whereRunStands } from '../helpers/time-skipping';
import { waitForMail } from '../helpers/mail';
import { json, WebhookServer } from '../automation/webhook-server';
import { webhookEndpointWorkflowId } from '../../workflows/webhooks/ids';
import { recordHistory } from './histories';
import { addEndpoint, deliveries, aroundWebhookTests, STREAM_WAIT_MS, track, verified, type WebhookStack } from './helpers';

let ws: WebhookStack;
let server: WebhookServer;
aroundWebhookTests((started, receiver) => {
  ws = started;
  server = receiver;
});

// Each test's endpoints are disabled when it ends: their loops would otherwise look at the stream every 10
// minutes of the days the later tests skip through. Disabled rather than deleted: a delete terminates the loop,
// and the time-skipping server keeps the activity of a terminated run pending, which stops time from skipping.
const created: Array<{ t: Tenant; id: string }> = [];
afterEach(async () => {
  for (const { t, id } of created.splice(0)) await t.c.patch(`/webhook-endpoints/${id}`).send({ enabled: false });
});

/** Days of skipped time take a while of real time on a loaded machine. */
const LONG = 180_000;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A receiver path that answers 503 until `up()`. */
function flakyReceiver() {
  const p = `/flaky-${randomBytes(3).toString('hex')}`;
  let down = true;
  server.on(p, (_req, res) => json(res, down ? 503 : 200, { down }));
  return { path: p, up: () => (down = false), ids: () => server.to(p).map((r) => r.headers['webhook-id'] as string) };
}

async function failingEndpoint(t: Tenant, receiver: { path: string }, names: string[]) {
  const endpoint = await addEndpoint(t, { url: server.url(receiver.path), events: ['o.*'] });
  created.push({ t, id: endpoint.id });
  const ids: string[] = [];
  for (const name of names) ids.push(await track(t, 'ann@example.test', name));
  // The first attempt of the head has failed: the queue now waits on a durable timer.
  await waitFor(
    'a failed first attempt',
    async () => ((await deliveries(t, endpoint.id)).some((d) => d.attempts >= 1) ? true : undefined),
    STREAM_WAIT_MS,
  );
  return { endpoint, ids };
}

/** Waits for `probe` on the endpoint's delivery log; failing, it says where the deliveries, the stream and the loop stood. */
async function watchLog<T>(
  t: Tenant,
  endpointId: string,
  what: string,
  probe: (log: Awaited<ReturnType<typeof deliveries>>) => T | undefined,
): Promise<T> {
  try {
    return await waitFor(what, async () => probe(await deliveries(t, endpointId)), STREAM_WAIT_MS);
  } catch (err) {
    const log = (await deliveries(t, endpointId)).map((d) => ({
      eventId: d.eventId,
      status: d.status,
      attempts: d.attempts,
      lastError: d.lastError,
      lastAttemptAt: d.lastAttemptAt,
      nextAttemptAt: d.nextAttemptAt,
    }));
    // The stream shows an event once every older transaction on the server has ended (docs/webhooks.md "Order").
    const oldest = await ws.stack.deps.orm.em.fork().execute(
      `select datname, state, now() - xact_start as age, left(query, 160) as query from pg_stat_activity
         where backend_xid is not null order by xact_start limit 3`,
    );
    const loop = await whereRunStands(ws.env!.client, webhookEndpointWorkflowId(endpointId));
    throw new Error(
      `${(err as Error).message}; deliveries ${JSON.stringify(log)}; oldest transactions ${JSON.stringify(oldest)}; ` +
        `loop: ${loop}; test server time ${new Date(await ws.env!.currentTimeMs()).toISOString()}`,
    );
  }
}

/** Waits until the endpoint's log holds `n` deliveries, all SUCCEEDED. */
const settled = (t: Tenant, endpointId: string, n: number) =>
  watchLog(t, endpointId, `${n} delivered`, (log) => (log.length === n && log.every((d) => d.status === 'SUCCEEDED') ? log : undefined));

describe('retries on durable timers (time-skipping)', () => {
  it.each([
    ['10 minutes', 10 * MINUTE],
    ['3 hours', 3 * HOUR],
    ['2 days', 2 * DAY],
  ])('a receiver down for %s gets everything afterwards, in order, each event under one webhook-id', async (_label, outage) => {
    const t = await tenant(ws.stack);
    const receiver = flakyReceiver();
    const { endpoint, ids } = await failingEndpoint(t, receiver, ['o.1', 'o.2', 'o.3']);
    await ws.env!.sleep(outage / 2);
    ids.push(await track(t, 'bob@example.test', 'o.4'));
    await ws.env!.sleep(outage / 2);

    const head = (await deliveries(t, endpoint.id)).find((d) => d.eventId === ids[0]);
    expect(head).toMatchObject({
      status: 'PENDING',
      lastStatusCode: 503,
      lastError: 'The webhook answered 503',
      nextAttemptAt: expect.any(String),
    });
    // Order: nothing behind the failing head was tried.
    expect(new Set(receiver.ids())).toEqual(new Set([ids[0]]));
    const failures = receiver.ids().length;
    expect(failures).toBeGreaterThan(outage >= DAY ? 15 : 2);
    // What an operator sees in the Temporal UI: the summary of the loop's first run (continued runs carry none, as
    // Temporal does not pass it on; docs/webhooks.md), and the details of how far the current one is.
    const handle = ws.env!.client.workflow.getHandle(webhookEndpointWorkflowId(endpoint.id));
    const firstRunId = (await handle.describe()).raw.workflowExecutionInfo?.firstRunId ?? undefined;
    const firstRun = ws.env!.client.workflow.getHandle(webhookEndpointWorkflowId(endpoint.id), firstRunId);
    expect(await (await firstRun.describe()).staticSummary()).toBe(
      `Deliver webhooks to ${server.url(receiver.path)} (project ${t.project.id})`,
    );
    const { currentDetails } = await handle.query<{ currentDetails: string }>('__temporal_workflow_metadata');
    expect(currentDetails).toMatch(
      new RegExp(
        `^Failing for [\\d.]+ [hs]: backlog [34], attempt ${failures} of delivery ${head!.id} failed: The webhook answered 503\\. Next attempt in `,
      ),
    );

    receiver.up();
    await ws.env!.sleep(3 * HOUR + MINUTE);
    const log = await settled(t, endpoint.id, 4);
    const delivered = server
      .to(receiver.path)
      .filter((r) => JSON.parse(r.body).type !== undefined)
      .slice(failures);
    expect(verified(delivered, endpoint.secret).map((b) => b.data.id)).toEqual(ids);
    expect(log.find((d) => d.eventId === ids[0])).toMatchObject({
      attempts: failures + 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
    });
  });

  it(
    'disables an endpoint failing for 3 days, tells the owners, and resumes where it stopped when enabled',
    async () => {
      const t = await tenant(ws.stack);
      const receiver = flakyReceiver();
      const { endpoint, ids } = await failingEndpoint(t, receiver, ['o.a', 'o.b']);
      await ws.env!.sleep(2 * DAY);
      expect((await t.c.get(`/webhook-endpoints/${endpoint.id}`).expect(200)).body.enabled).toBe(true);
      await ws.env!.sleep(DAY + 3 * HOUR);

      const disabled = await waitFor('disabled', async () => {
        const body = (await t.c.get(`/webhook-endpoints/${endpoint.id}`).expect(200)).body;
        return body.enabled ? undefined : body;
      });
      expect(disabled.disabledReason).toMatch(/^Deliveries failed for 7\d(\.\d)? h; last error: The webhook answered 503$/);
      const mail = await waitForMail(ws.stack.smtp, t.user.email, /A webhook endpoint of .* was disabled/);
      expect(mail.text).toContain(server.url(receiver.path));
      // The workflow ends after the activity that disabled the endpoint and mailed the owners returns. A wake
      // for the events before may come up to a second late (src/modules/webhooks/consumer.ts), after days of
      // skipped time, and start a run after it: that run finds the endpoint disabled and ends on its first round.
      const stream = ws.env!.client.workflow.getHandle(webhookEndpointWorkflowId(endpoint.id));
      await stream.result();
      const closed = await waitFor('the delivery loop closed', async () => {
        const status = (await stream.describe()).status.name;
        return status === 'RUNNING' ? undefined : status;
      });
      expect(closed).toBe('COMPLETED');
      await recordHistory(ws.env!, webhookEndpointWorkflowId(endpoint.id), 'failing-3-days-disabled');

      // Recorded while disabled: kept, and delivered after the ones before it once enabled again.
      ids.push(await track(t, 'ann@example.test', 'o.c'));
      const failures = receiver.ids().length;
      const enabled = (await t.c.patch(`/webhook-endpoints/${endpoint.id}`).send({ enabled: true }).expect(200)).body;
      expect(enabled).toMatchObject({ enabled: true, disabledReason: null });
      // Enabled while the receiver is still down: the loop tries at once, and the backoff starts anew (5 s, not 3 h).
      const retry = await watchLog(t, endpoint.id, 'the first attempt after enabling', (log) =>
        log.find((d) => d.eventId === ids[0] && d.attempts === failures + 1),
      );
      expect(Date.parse(retry.nextAttemptAt!) - Date.parse(retry.lastAttemptAt!)).toBe(5_000);
      receiver.up();
      await ws.env!.sleep(10_000);
      await settled(t, endpoint.id, 3);
      expect(verified(server.to(receiver.path).slice(failures + 1), endpoint.secret).map((b) => b.data.id)).toEqual(ids);
    },
    LONG,
  );

  it('a paused endpoint sends nothing until it is enabled again', async () => {
    const t = await tenant(ws.stack);
    const p = `/paused-${randomBytes(3).toString('hex')}`;
    const endpoint = await addEndpoint(t, { url: server.url(p), events: ['o.*'] });
    created.push({ t, id: endpoint.id });
    await t.c.patch(`/webhook-endpoints/${endpoint.id}`).send({ enabled: false }).expect(200);
    const id = await track(t, 'ann@example.test', 'o.p');
    await ws.env!.sleep(HOUR);
    expect(server.to(p)).toEqual([]);
    await t.c.patch(`/webhook-endpoints/${endpoint.id}`).send({ enabled: true }).expect(200);
    await settled(t, endpoint.id, 1);
    expect(server.to(p).map((r) => r.headers['webhook-id'])).toEqual([id]);
  });
});
