import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { tenant } from '../helpers/tenants';
import { waitFor } from '../helpers/wait';
import { json, WebhookServer } from '../automation/webhook-server';
import { addEndpoint, deliveries, aroundWebhookTests, STREAM_WAIT_MS, track, verified, waitForCount, type WebhookStack } from './helpers';

let ws: WebhookStack;
let server: WebhookServer;
aroundWebhookTests((started, receiver) => {
  ws = started;
  server = receiver;
});

const path = (name: string) => `/${name}-${randomBytes(3).toString('hex')}`;

describe('delivery of recorded events', () => {
  it('POSTs every selected event once, in recorded order, with the spec payload and Standard Webhooks signature', async () => {
    const t = await tenant(ws.stack);
    const p = path('in');
    const endpoint = await addEndpoint(t, { url: server.url(p), events: ['order.*', 'signup'] });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const ids: string[] = [];
    ids.push(await track(t, 'ann@example.test', 'signup', { plan: 'pro' }));
    for (let i = 0; i < 20; i++)
      ids.push(await track(t, i % 2 ? 'bob@example.test' : 'ann@example.test', `order.${i % 3 ? 'paid' : 'placed'}`, { n: i }));
    await track(t, 'ann@example.test', 'ignored');
    await waitForCount('21 deliveries', () => server.to(p).length, 21);
    await new Promise((r) => setTimeout(r, 500));

    const received = server.to(p);
    const bodies = verified(received, endpoint.secret);
    expect(bodies.map((b) => b.data.id)).toEqual(ids);
    expect(received.map((r) => r.headers['webhook-id'])).toEqual(ids);
    expect(bodies[1]).toEqual({
      type: 'order.placed',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: { id: ids[1], name: 'order.placed', contact: { id: expect.any(String), email: 'ann@example.test' }, data: { n: 0 } },
    });
    expect(received[0]!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(received[0]!.headers['content-type']).toBe('application/json');

    const log = await deliveries(t, endpoint.id);
    expect(log).toHaveLength(21);
    expect(log.map((d) => d.eventId).reverse()).toEqual(ids);
    expect(log[0]).toMatchObject({ status: 'SUCCEEDED', attempts: 1, lastStatusCode: 200, lastError: null, nextAttemptAt: null });
  });

  it('an event held back behind a transaction still running goes out once it ends, without another event', async () => {
    const t = await tenant(ws.stack);
    const p = path('held');
    const endpoint = await addEndpoint(t, { url: server.url(p), events: ['held'] });
    // A transaction that began writing before the event: the stream cannot pass it until it ends.
    const open = ws.stack.deps.orm.em.fork();
    await open.begin();
    await open.execute('select pg_current_xact_id()');
    try {
      const id = await track(t, 'ann@example.test', 'held');
      // Longer than the rounds started by the endpoint's creation and by the event's wake keep looking (3 s each).
      await new Promise((r) => setTimeout(r, 8_000));
      expect(server.to(p)).toEqual([]);
      await open.commit();
      await waitForCount('the held event', () => server.to(p).length, 1, 10_000);
      expect(verified(server.to(p), endpoint.secret)[0]!.data.id).toBe(id);
    } finally {
      if (open.isInTransaction()) await open.rollback();
    }
  });

  it('a wrong secret or an altered body does not verify', async () => {
    const t = await tenant(ws.stack);
    const p = path('tamper');
    const endpoint = await addEndpoint(t, { url: server.url(p), events: ['tamper'] });
    await track(t, 'ann@example.test', 'tamper');
    await waitForCount('one delivery', () => server.to(p).length, 1);
    const [req] = server.to(p);
    const other = new Webhook(`whsec_${randomBytes(24).toString('base64')}`);
    expect(() => other.verify(req!.body, req!.headers as Record<string, string>)).toThrow();
    expect(() => new Webhook(endpoint.secret).verify(`${req!.body} `, req!.headers as Record<string, string>)).toThrow();
  });

  it('signs with both the new and the previous secret after a rotation, so receivers switch without a gap', async () => {
    const t = await tenant(ws.stack);
    const p = path('rotate');
    const endpoint = await addEndpoint(t, { url: server.url(p), events: ['rot'] });
    const rotated = (await t.c.post(`/webhook-endpoints/${endpoint.id}/rotate-secret`).expect(200)).body;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect((await t.c.get(`/webhook-endpoints/${endpoint.id}`).expect(200)).body.secret).not.toBe(rotated.secret);
    await track(t, 'ann@example.test', 'rot');
    await waitForCount('one delivery', () => server.to(p).length, 1);
    const [req] = server.to(p);
    expect(String(req!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified([req!], rotated.secret)).toHaveLength(1);
    expect(verified([req!], endpoint.secret)).toHaveLength(1);
  });

  it('sends a test message now and records it in the log, succeeded or failed', async () => {
    const t = await tenant(ws.stack);
    const ok = path('test-ok');
    const down = path('test-down');
    server.on(down, (_req, res) => json(res, 503, { down: true }));
    const a = await addEndpoint(t, { url: server.url(ok), events: ['none'] });
    const b = await addEndpoint(t, { url: server.url(down), events: ['none'] });
    const sent = (await t.c.post(`/webhook-endpoints/${a.id}/test`).expect(200)).body;
    expect(sent).toMatchObject({ eventId: null, type: 'webhook.test', status: 'SUCCEEDED', attempts: 1, lastStatusCode: 200 });
    expect(verified(server.to(ok), a.secret)[0]).toMatchObject({ type: 'webhook.test' });
    expect(server.to(ok)[0]!.headers['webhook-id']).toBe(sent.id);
    const failed = (await t.c.post(`/webhook-endpoints/${b.id}/test`).expect(200)).body;
    expect(failed).toMatchObject({ status: 'FAILED', lastStatusCode: 503, lastError: 'The webhook answered 503' });
    expect((await deliveries(t, b.id)).map((d) => d.id)).toEqual([failed.id]);
  });

  it('keeps to one project: events of another project never reach an endpoint', async () => {
    const a = await tenant(ws.stack);
    const b = await tenant(ws.stack);
    const pa = path('iso-a');
    const pb = path('iso-b');
    await addEndpoint(a, { url: server.url(pa) });
    await addEndpoint(b, { url: server.url(pb) });
    await track(a, 'ann@example.test', 'only.a');
    await track(b, 'bob@example.test', 'only.b');
    await waitFor(
      'both delivered',
      async () =>
        server.to(pa).some((r) => r.body.includes('only.a')) && server.to(pb).some((r) => r.body.includes('only.b')) ? true : undefined,
      STREAM_WAIT_MS,
    );
    expect(server.to(pa).every((r) => !r.body.includes('bob@example.test'))).toBe(true);
    expect(server.to(pb).every((r) => !r.body.includes('ann@example.test'))).toBe(true);
  });
});
