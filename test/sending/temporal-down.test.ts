import { Client, Connection } from '@temporalio/client';
import { startStack, type TestStack } from '../helpers/stack';
import { client, senderTenant } from '../helpers/tenants';
import { recipient, storedCounts } from '../emails/helpers';

// Nothing listens on port 1: every Temporal call of `down` fails as it would during an outage. `up` shares
// the database and sets tenants up (adding a sender domain starts its check loop).
const connection = Connection.lazy({ address: '127.0.0.1:1' });
// Each refused call waits out the client's connection retries.
jest.setTimeout(120_000);
let up: TestStack;
let down: TestStack;
beforeAll(async () => {
  up = await startStack({ terminateWorkflows: true });
  down = await startStack({ temporal: { client: new Client({ connection }), taskQueue: 'unreachable', searchAttributes: true } });
});
afterAll(async () => {
  await down?.close();
  await connection.close();
  await up?.close();
});

const later = () => new Date(Date.now() + 3_600_000).toISOString();

describe('scheduled sends while Temporal is unreachable', () => {
  it('answers 503 to a send or a batch with a sendAt, storing nothing; sends without one still go', async () => {
    const t = await senderTenant(up);
    const c = client(down, t.project);
    const email = () => ({ to: recipient(), from: t.from, subject: 'Later', body: '<p>Later</p>', sendAt: later() });
    for (const res of [await c.post('/v1/send').send(email()), await c.post('/v1/send/batch').send([email(), email()])]) {
      expect([res.status, res.body.error?.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    }
    expect(await storedCounts(up, t.project.id)).toEqual({ emails: 0, contacts: 0, events: 0 });
    await c
      .post('/v1/send')
      .send({ ...email(), sendAt: undefined })
      .expect(200);
  });

  it('answers 503 to a reschedule and changes nothing; cancels without Temporal', async () => {
    const t = await senderTenant(up);
    const res = await t.c
      .post('/v1/send')
      .send({ to: recipient(), from: t.from, subject: 'Later', body: '<p>Later</p>', sendAt: later() })
      .expect(200);
    const { email: id, scheduledAt } = res.body.data.emails[0];
    const c = client(down, t.project);
    const moved = await c.patch(`/v1/emails/${id as string}`).send({ sendAt: new Date(Date.now() + 7_200_000).toISOString() });
    expect([moved.status, moved.body.error?.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect((await c.get(`/v1/emails/${id as string}`).expect(200)).body.data).toMatchObject({ status: 'SCHEDULED', scheduledAt });
    expect((await c.post(`/v1/emails/${id as string}/cancel`).expect(200)).body.data.status).toBe('CANCELLED');
  });
});
