import { startStack, type TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { senderTenant, setBillingLimits, type SenderTenant } from '../helpers/tenants';
import { recipient, settled, storedCounts } from '../emails/helpers';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ pump: true, terminateWorkflows: true });
});
afterAll(() => stack?.close());

const item = (t: SenderTenant, extra: Record<string, unknown> = {}) => ({
  to: recipient('batch'),
  from: t.from,
  subject: 'Order {{ order }}',
  body: '<p>Thanks for order {{ order }}</p>',
  data: { order: { value: 'A-1', persistent: false } },
  ...extra,
});

const batch = (t: SenderTenant, items: unknown[], key?: string) => {
  const req = t.c.post('/v1/send/batch');
  return (key ? req.set('Idempotency-Key', key) : req).send(items);
};

describe('POST /v1/send/batch', () => {
  it('sends 100 emails, answering the /v1/send data of each item in order', async () => {
    const t = await senderTenant(stack);
    const items = Array.from({ length: 100 }, (_, i) => item(t, { data: { order: { value: `N-${i}`, persistent: false } } }));
    const res = await batch(t, items).expect(200);
    expect(res.body).toEqual({ success: true, data: { batch: expect.any(Array), timestamp: expect.any(String) } });
    expect(res.body.data.batch).toHaveLength(100);
    res.body.data.batch.forEach((data: { emails: Array<{ contact: { email: string }; scheduledAt: null }> }, i: number) => {
      expect(data).toEqual({
        emails: [expect.objectContaining({ contact: expect.objectContaining({ email: items[i]!.to }), scheduledAt: null })],
        timestamp: expect.any(String),
      });
    });
    const last = res.body.data.batch[99].emails[0].email as string;
    expect((await settled(stack, last)).status).toBe('SENT');
    expect(stack.smtp.to(items[99]!.to)[0]!.raw).toContain('Thanks for order N-99');
  });

  it('stores nothing when one item of 100 is invalid, and reports every invalid item by index', async () => {
    const t = await senderTenant(stack);
    const items: Array<Record<string, unknown>> = Array.from({ length: 100 }, () => item(t));
    items[57] = item(t, { subject: '' });
    const one = await batch(t, items).expect(422);
    expect(one.body.error.errors.map((e: { field: string }) => e.field)).toEqual(['[57].subject']);
    expect(await storedCounts(stack, t.project.id)).toEqual({ emails: 0, contacts: 0, events: 0 });

    items[3] = item(t, { to: 'nope' });
    items[10] = item(t, { template: '00000000-0000-4000-8000-000000000000', subject: undefined, body: undefined });
    // The same missing template again: each item naming it is reported, though the batch reads it once.
    items[11] = item(t, { template: '00000000-0000-4000-8000-000000000000', subject: undefined, body: undefined });
    items[20] = item(t, { from: 'someone@unverified.example.test' });
    items[30] = item(t, { body: '<p>{% if %}</p>' });
    items[40] = item(t, { sendAt: 'tomorrow' });
    const many = await batch(t, items).expect(422);
    expect(many.body.error).toMatchObject({ code: 'VALIDATION_ERROR', statusCode: 422 });
    const fields = many.body.error.errors.map((e: { field: string; code: string }) => [e.field, e.code]);
    expect(fields).toEqual(
      expect.arrayContaining([
        ['[3].to', expect.any(String)],
        ['[40].sendAt', expect.any(String)],
        ['[57].subject', expect.any(String)],
      ]),
    );
    // Items valid in shape but not for the project are reported once the shapes are right.
    items[3] = item(t);
    items[40] = item(t);
    items[57] = item(t);
    const project = await batch(t, items).expect(422);
    expect(project.body.error.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([
      ['[10].template', 'not_found'],
      ['[11].template', 'not_found'],
      ['[20].from', 'unverified_domain'],
      ['[30].body', 'invalid_template'],
    ]);
    expect(await storedCounts(stack, t.project.id)).toEqual({ emails: 0, contacts: 0, events: 0 });
  });

  it('refuses an empty batch, more than 100 items and a body that is no array with 422', async () => {
    const t = await senderTenant(stack);
    await batch(t, []).expect(422);
    await batch(
      t,
      Array.from({ length: 101 }, () => item(t)),
    ).expect(422);
    await t.c.post('/v1/send/batch').send(item(t)).expect(422);
    expect((await storedCounts(stack, t.project.id)).emails).toBe(0);
  });

  it('takes one Idempotency-Key for the whole batch: reused, 409; released by a refused batch; shared with /v1/send', async () => {
    const t = await senderTenant(stack);
    const items = [item(t), item(t), item(t)];
    await batch(t, [item(t, { subject: '' })], 'order-1042').expect(422);
    await batch(t, items, 'order-1042').expect(200);
    const again = await batch(t, items, 'order-1042').expect(409);
    expect(again.body.error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', details: { key: 'order-1042', originalStatusCode: 200 } });
    await t.c.post('/v1/send').set('Idempotency-Key', 'order-1042').send(item(t)).expect(409);
    expect((await storedCounts(stack, t.project.id)).emails).toBe(3);
  });

  it('is refused whole (403 BILLING_LIMIT_EXCEEDED, nothing stored) when its emails would pass the TRANSACTIONAL cap', async () => {
    const t = await senderTenant(stack);
    await setBillingLimits(stack, t, { TRANSACTIONAL: 5 });
    const refused = await batch(
      t,
      Array.from({ length: 6 }, () => item(t)),
    ).expect(403);
    expect(refused.body.error).toMatchObject({ code: 'BILLING_LIMIT_EXCEEDED', details: { limit: 5, used: 0, requested: 6 } });
    expect(await storedCounts(stack, t.project.id)).toEqual({ emails: 0, contacts: 0, events: 0 });
    await batch(
      t,
      Array.from({ length: 5 }, () => item(t)),
    ).expect(200);
  });
});

describe('POST /v1/send/batch and the send rate limit', () => {
  let limited: TestStack;
  // One email a second, a burst of ten.
  beforeAll(async () => {
    limited = await startStack({ env: { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_SEND_PER_SECOND: '1', RATE_LIMIT_SEND_BURST: '10' } });
  });
  afterAll(() => limited?.close());

  it('counts each email: a batch takes a token per email, into debt past the burst, and later sends wait for it', async () => {
    const t = await senderTenant(limited);
    const items = (n: number) => Array.from({ length: n }, () => item(t));
    await t.c.post('/v1/send/batch').send(items(8)).expect(200);
    await t.c.post('/v1/send/batch').send(items(5)).expect(200);
    const refused = await t.c.post('/v1/send').send(item(t)).expect(429);
    expect(refused.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(2);
    const [row] = await sql<{ n: string }>(limited, 'select count(*) as n from emails where project_id = ?', [t.project.id]);
    expect(Number(row!.n)).toBe(13);
  });
});
