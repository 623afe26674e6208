import { randomBytes, randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { gatewayFor, startWorker } from '../helpers/temporal';
import { tenant, type Tenant } from '../helpers/tenants';
import { waitFor } from '../helpers/wait';
import { WebhookServer } from '../automation/webhook-server';
import type { EventDispatcher } from '../../src/modules/outbox/dispatcher';
import {
  addEndpoint,
  deliveries,
  startDispatcher,
  aroundWebhookTests,
  STREAM_WAIT_MS,
  track,
  verified,
  waitForCount,
  type WebhookStack,
} from './helpers';

let ws: WebhookStack;
let server: WebhookServer;
aroundWebhookTests((started, receiver) => {
  ws = started;
  server = receiver;
});

const path = (name: string) => `/${name}-${randomBytes(3).toString('hex')}`;

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect([res.status, res.body.success, res.body.error?.code]).toEqual([status, false, code]);
}

describe('the endpoints resource', () => {
  it('creates, reads, lists, changes and deletes an endpoint; the secret is in full only on create and rotate', async () => {
    const t = await tenant(ws.stack);
    const created = await addEndpoint(t, { url: server.url('/a'), description: 'CRM', events: ['email.*', 'signup', 'signup'] });
    expect(created).toEqual({
      id: expect.any(String),
      url: server.url('/a'),
      description: 'CRM',
      events: ['email.*', 'signup'],
      enabled: true,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      disabledReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const read = (await t.c.get(`/webhook-endpoints/${created.id}`).expect(200)).body;
    expect(read).toEqual({ ...created, secret: 'whsec_********' });
    const second = await addEndpoint(t, { url: server.url('/b') });
    expect(second.events).toEqual([]);
    expect((await t.c.get('/webhook-endpoints').expect(200)).body.data.map((e: any) => e.id)).toEqual([second.id, created.id]);

    const patched = (
      await t.c
        .patch(`/webhook-endpoints/${created.id}`)
        .send({ url: server.url('/c'), events: [], description: null })
        .expect(200)
    ).body;
    expect(patched).toMatchObject({ url: server.url('/c'), events: [], description: null, secret: 'whsec_********' });
    const rotated = (await t.c.post(`/webhook-endpoints/${created.id}/rotate-secret`).expect(200)).body;
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    await t.c.delete(`/webhook-endpoints/${created.id}`).expect(204);
    expectError(await t.c.get(`/webhook-endpoints/${created.id}`), 404, 'NOT_FOUND');
    expectError(await t.c.delete(`/webhook-endpoints/${created.id}`), 404, 'NOT_FOUND');
  });

  it.each([
    ['no url', {}, 'url'],
    ['a relative url', { url: '/hook' }, 'url'],
    ['another scheme', { url: 'ftp://example.com/x' }, 'url'],
    ['credentials in the url', { url: 'https://user:pw@example.com/x' }, 'url'],
    ['a url too long', { url: `https://example.com/${'a'.repeat(2100)}` }, 'url'],
    ['events not a list', { url: 'https://example.com/x', events: 'email.*' }, 'events'],
    ['a star inside a pattern', { url: 'https://example.com/x', events: ['email.*.x'] }, 'events.0'],
    ['an empty pattern', { url: 'https://example.com/x', events: [''] }, 'events.0'],
    ['a pattern with a space', { url: 'https://example.com/x', events: ['a b'] }, 'events.0'],
    ['too many patterns', { url: 'https://example.com/x', events: Array.from({ length: 51 }, (_, i) => `e${i}`) }, 'events'],
    ['enabled not a boolean', { url: 'https://example.com/x', enabled: 'yes' }, 'enabled'],
  ])('refuses %s with 422 and adds nothing', async (_what, body, field) => {
    const t = await tenant(ws.stack);
    const res = await t.c.post('/webhook-endpoints').send(body);
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.errors.map((e: any) => e.field)).toContain(field);
    expect((await t.c.get('/webhook-endpoints').expect(200)).body.data).toEqual([]);
  });

  it('answers bad ids, queries, bodies and an empty change in the envelope, never a 5xx', async () => {
    const t = await tenant(ws.stack);
    const e = await addEndpoint(t, { url: server.url('/x') });
    expectError(await t.c.get('/webhook-endpoints/not-a-uuid'), 404, 'NOT_FOUND');
    expectError(await t.c.get(`/webhook-endpoints/${randomUUID()}/deliveries`), 404, 'NOT_FOUND');
    expectError(await t.c.get(`/webhook-endpoints/${e.id}/deliveries?status=LOST`), 400, 'BAD_REQUEST');
    expectError(await t.c.get(`/webhook-endpoints/${e.id}/deliveries?page=0`), 400, 'BAD_REQUEST');
    expectError(await t.c.patch(`/webhook-endpoints/${e.id}`).send({}), 422, 'VALIDATION_ERROR');
    expectError(await t.c.patch(`/webhook-endpoints/${e.id}`).send({ url: 'nope' }), 422, 'VALIDATION_ERROR');
    expectError(await t.c.post(`/webhook-endpoints/${e.id}/replay`).send({ since: 'yesterday' }), 422, 'VALIDATION_ERROR');
    expectError(
      await t.c.post(`/webhook-endpoints/${e.id}/replay`).send({ since: new Date(Date.now() - 31 * 86_400_000).toISOString() }),
      422,
      'VALIDATION_ERROR',
    );
    expectError(
      await t.c.post(`/webhook-endpoints/${e.id}/replay`).send({ since: new Date(Date.now() + 86_400_000).toISOString() }),
      422,
      'VALIDATION_ERROR',
    );
    expectError(await t.c.post('/webhook-endpoints').set('Content-Type', 'application/json').send('{"url":'), 400, 'BAD_REQUEST');
    expectError(await ws.stack.http().get('/webhook-endpoints'), 401, 'INVALID_API_KEY');
    expect((await t.c.get(`/webhook-endpoints/${e.id}`).expect(200)).body.url).toBe(server.url('/x'));
  });

  it('caps the endpoints of a project', async () => {
    const t = await tenant(ws.stack);
    for (let i = 0; i < 20; i++) await addEndpoint(t, { url: server.url(`/cap${i}`), enabled: false });
    expectError(await t.c.post('/webhook-endpoints').send({ url: server.url('/cap20') }), 409, 'CONFLICT');
  });

  it("never reaches another project's endpoint or its log", async () => {
    const a = await tenant(ws.stack);
    const b = await tenant(ws.stack);
    const e = await addEndpoint(a, { url: server.url('/mine') });
    for (const res of [
      await b.c.get(`/webhook-endpoints/${e.id}`),
      await b.c.patch(`/webhook-endpoints/${e.id}`).send({ enabled: false }),
      await b.c.delete(`/webhook-endpoints/${e.id}`),
      await b.c.post(`/webhook-endpoints/${e.id}/rotate-secret`),
      await b.c.post(`/webhook-endpoints/${e.id}/test`),
      await b.c.get(`/webhook-endpoints/${e.id}/deliveries`),
      await b.c.post(`/webhook-endpoints/${e.id}/replay`).send({ since: new Date().toISOString() }),
    ])
      expectError(res, 404, 'NOT_FOUND');
    expect((await b.c.get('/webhook-endpoints').expect(200)).body.data).toEqual([]);
    expect((await a.c.get(`/webhook-endpoints/${e.id}`).expect(200)).body.enabled).toBe(true);
  });
});

describe('selection patterns', () => {
  it('delivers exact names and prefixes, and everything for an empty list or *', async () => {
    const t = await tenant(ws.stack);
    const [exact, prefix, star, all] = [path('exact'), path('prefix'), path('star'), path('all')];
    await addEndpoint(t, { url: server.url(exact), events: ['order.paid'] });
    await addEndpoint(t, { url: server.url(prefix), events: ['order.*', 'signup'] });
    await addEndpoint(t, { url: server.url(star), events: ['*'] });
    await addEndpoint(t, { url: server.url(all) });
    for (const name of ['order.paid', 'order.refunded', 'orders', 'signup', 'signup.done']) await track(t, 'ann@example.test', name);
    // Unsubscribing records the service event contact.unsubscribed in the same transaction as the tracked one.
    await t.c.track({ email: 'ann@example.test', event: 'order.paid.late', subscribed: false }).expect(200);
    await waitForCount('everything at the catch-all endpoints', () => Math.min(server.to(star).length, server.to(all).length), 7);
    await waitForCount('the prefix endpoint', () => server.to(prefix).length, 4);
    await new Promise((r) => setTimeout(r, 500));
    const names = (p: string) => server.to(p).map((r) => JSON.parse(r.body).type);
    expect(names(exact)).toEqual(['order.paid']);
    expect(names(prefix)).toEqual(['order.paid', 'order.refunded', 'signup', 'order.paid.late']);
    expect(names(star).slice(0, 5)).toEqual(['order.paid', 'order.refunded', 'orders', 'signup', 'signup.done']);
    expect(new Set(names(star).slice(5))).toEqual(new Set(['contact.unsubscribed', 'order.paid.late']));
    expect(names(all)).toEqual(names(star));
  });

  it('a changed selection applies to the events recorded afterwards', async () => {
    const t = await tenant(ws.stack);
    const p = path('change');
    const e = await addEndpoint(t, { url: server.url(p), events: ['a'] });
    await track(t, 'ann@example.test', 'a');
    await waitForCount('a', () => server.to(p).length, 1);
    await t.c
      .patch(`/webhook-endpoints/${e.id}`)
      .send({ events: ['b'] })
      .expect(200);
    await track(t, 'ann@example.test', 'a');
    await track(t, 'ann@example.test', 'b');
    await waitForCount('b', () => server.to(p).length, 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(server.to(p).map((r) => JSON.parse(r.body).type)).toEqual(['a', 'b']);
  });
});

describe('replay', () => {
  it('queues the selected events since a time again, in recorded order, under their first webhook-id', async () => {
    const t = await tenant(ws.stack);
    const p = path('replay');
    const e = await addEndpoint(t, { url: server.url(p), events: ['r.*'] });
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await track(t, 'ann@example.test', `r.${i}`));
    await waitForCount('first deliveries', () => server.to(p).length, 5);
    const since = new Date(Date.now() - 60_000).toISOString();
    const res = await t.c.post(`/webhook-endpoints/${e.id}/replay`).send({ since }).expect(202);
    expect(res.body).toEqual({ queued: 5, nextSince: null });
    await waitForCount('replayed deliveries', () => server.to(p).length, 10);
    await new Promise((r) => setTimeout(r, 300));
    const received = verified(server.to(p), e.secret).map((b) => b.data.id);
    expect(received).toEqual([...ids, ...ids]);
    expect(
      server
        .to(p)
        .slice(5)
        .map((r) => r.headers['webhook-id']),
    ).toEqual(ids);
    const log = await deliveries(t, e.id);
    expect(log).toHaveLength(10);
    expect(log.every((d) => d.status === 'SUCCEEDED')).toBe(true);
    expect((await t.c.post(`/webhook-endpoints/${e.id}/replay`).send({ since: new Date().toISOString() }).expect(202)).body.queued).toBe(0);
  });
});

describe('SSRF rules (WEBHOOK_ALLOW_PRIVATE off)', () => {
  let guarded: TestStack;
  let g: Tenant;
  let dispatcher: EventDispatcher;
  beforeAll(async () => {
    guarded = await startStack({
      temporal: gatewayFor(ws.env!, `webhooks-guarded-${randomBytes(4).toString('hex')}`),
      worker: (deps) => startWorker(deps, ws.env!.nativeConnection),
    });
    dispatcher = await startDispatcher(guarded);
    g = await tenant(guarded);
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await guarded?.close();
  });

  it.each([
    'http://127.0.0.1:9/x',
    'http://[::1]/x',
    'http://10.0.0.1/x',
    'http://192.168.1.1/x',
    'http://169.254.169.254/latest/meta-data/',
    'http://localhost/x',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://inside.example.test/x',
  ])('refuses %s when it is given', async (url) => {
    guarded.dns.set('inside.example.test', [{ type: 'A', address: '10.1.2.3' }]);
    const res = await g.c.post('/webhook-endpoints').send({ url });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.errors[0]).toMatchObject({ field: 'url', code: 'refused_address' });
  });

  it('refuses to deliver once the name resolves inward, and sends nothing there', async () => {
    const host = `hooks-${randomBytes(3).toString('hex')}.example.test`;
    guarded.dns.set(host, [{ type: 'A', address: '93.184.216.34' }]);
    const e = await addEndpoint(g, { url: `http://${host}:${server.port}/x`, events: ['inward'] });
    guarded.dns.set(host, [{ type: 'A', address: '127.0.0.1' }]);
    const before = server.requests.length;
    const sent = (await g.c.post(`/webhook-endpoints/${e.id}/test`).expect(200)).body;
    expect(sent).toMatchObject({ status: 'FAILED', lastStatusCode: null });
    expect(sent.lastError).toMatch(/resolves to 127\.0\.0\.1, a private, loopback, link-local or reserved address/);
    // Delivery checks the address again: the queued delivery fails the same way and waits for its retry.
    await guarded
      .http()
      .post('/v1/track')
      .set('Authorization', `Bearer ${g.project.public}`)
      .send({ email: 'ann@example.test', event: 'inward' })
      .expect(200);
    const [queued] = await waitFor(
      'a failed attempt',
      async () => {
        const log = (await deliveries(g, e.id)).filter((d) => d.type === 'inward');
        return log[0]?.attempts === 1 ? log : undefined;
      },
      STREAM_WAIT_MS,
    );
    expect(queued).toMatchObject({ status: 'PENDING', lastStatusCode: null, nextAttemptAt: expect.any(String) });
    expect(queued.lastError).toMatch(/resolves to 127\.0\.0\.1/);
    expect(server.requests.length).toBe(before);
  });
});

it('the log pages newest first and filters by status', async () => {
  const t = await tenant(ws.stack);
  const p = path('page');
  const e = await addEndpoint(t, { url: server.url(p), events: ['pg'] });
  for (let i = 0; i < 3; i++) await track(t, 'ann@example.test', 'pg', { i });
  await waitForCount('3', () => server.to(p).length, 3);
  await waitFor('logged', async () => ((await deliveries(t, e.id, '&status=SUCCEEDED')).length === 3 ? true : undefined), STREAM_WAIT_MS);
  const page = (await t.c.get(`/webhook-endpoints/${e.id}/deliveries?page=2&pageSize=2`).expect(200)).body;
  expect(page).toMatchObject({ total: 3, page: 2, pageSize: 2, totalPages: 2 });
  expect(page.data).toHaveLength(1);
  expect(await deliveries(t, e.id, '&status=PENDING')).toEqual([]);
});
