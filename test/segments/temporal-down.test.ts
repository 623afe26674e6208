import { Client, Connection } from '@temporalio/client';
import { startStack, type TestStack } from '../helpers/stack';
import { addContact, createSegment, proPlan, snapshot } from './helpers';
import { tenant } from '../helpers/tenants';

// Nothing listens on port 1: every Temporal call fails as it would during an outage.
const connection = Connection.lazy({ address: '127.0.0.1:1' });
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ temporal: { client: new Client({ connection }), taskQueue: 'unreachable', searchAttributes: true } });
});
afterAll(async () => {
  await stack?.close();
  await connection.close();
});

describe('segments while Temporal is unreachable', () => {
  it('answers 503 to creating a tracked segment and creates nothing', async () => {
    const t = await tenant(stack);
    await addContact(t, 'ann@example.test', { plan: 'pro' });
    const before = await snapshot(stack, t.project.id);
    const res = await t.c.post('/segments').send({ name: 'Tracked', condition: proPlan, trackMembership: true });
    expect([res.status, res.body.error?.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(await snapshot(stack, t.project.id)).toEqual(before);
  });

  it('answers 503 to turning tracking on and rolls the whole PATCH back', async () => {
    const t = await tenant(stack);
    await addContact(t, 'ann@example.test', { plan: 'pro' });
    const s = await createSegment(t, { name: 'Pro', condition: proPlan });
    const before = await snapshot(stack, t.project.id);
    const res = await t.c.patch(`/segments/${s.id}`).send({ name: 'Renamed', trackMembership: true });
    expect([res.status, res.body.error?.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(await snapshot(stack, t.project.id)).toEqual(before);
  });

  it('still serves everything that needs no workflow', async () => {
    const t = await tenant(stack);
    await addContact(t, 'ann@example.test', { plan: 'pro' });
    const s = await createSegment(t, { name: 'Pro', condition: proPlan });
    await t.c.patch(`/segments/${s.id}`).send({ name: 'Pro plan' }).expect(200);
    expect((await t.c.post(`/segments/${s.id}/refresh`).expect(200)).body).toEqual({ memberCount: 1 });
    expect((await t.c.get(`/segments/${s.id}/contacts`).expect(200)).body.total).toBe(1);
    await t.c.delete(`/segments/${s.id}`).expect(204);
  });
});
