import { Client, Connection } from '@temporalio/client';
import { startStack, type TestStack } from '../helpers/stack';
import { tenant } from '../helpers/tenants';
import { startDispatcher } from './helpers';
import type { EventDispatcher } from '../../src/modules/outbox/dispatcher';

// Nothing listens on port 1: every Temporal call fails as it would during an outage.
const connection = Connection.lazy({ address: '127.0.0.1:1' });
let stack: TestStack;
let dispatcher: EventDispatcher;
beforeAll(async () => {
  stack = await startStack({
    env: { WEBHOOK_ALLOW_PRIVATE: 'true' },
    temporal: { client: new Client({ connection }), taskQueue: 'unreachable', searchAttributes: true },
  });
  dispatcher = await startDispatcher(stack);
});
afterAll(async () => {
  await dispatcher?.stop();
  await stack?.close();
  // The connection stays open: a wake or stop not waited for may still be between gRPC retries, and closing the
  // channel under it throws from a timer. Jest ends the worker.
});

describe('webhook endpoints while Temporal is unreachable', () => {
  it('answers 503 to a create and keeps no endpoint without its delivery loop', async () => {
    const t = await tenant(stack);
    const res = await t.c.post('/webhook-endpoints').send({ url: 'http://127.0.0.1:9/x' });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', statusCode: 503 });
    expect((await t.c.get('/webhook-endpoints').expect(200)).body.data).toEqual([]);
  });

  it('keeps a disabled endpoint disabled when enabling cannot start its loop; events still record, and delete works', async () => {
    const t = await tenant(stack);
    const created = (await t.c.post('/webhook-endpoints').send({ url: 'http://127.0.0.1:9/x', enabled: false }).expect(201)).body;
    const res = await t.c.patch(`/webhook-endpoints/${created.id}`).send({ enabled: true });
    expect(res.status).toBe(503);
    expect((await t.c.get(`/webhook-endpoints/${created.id}`).expect(200)).body.enabled).toBe(false);
    // The outbox's wake fails quietly: tracking is not held up by webhooks.
    await t.c.track({ email: 'ann@example.test', event: 'still.recorded' }).expect(200);
    await t.c.delete(`/webhook-endpoints/${created.id}`).expect(204);
  });
});
