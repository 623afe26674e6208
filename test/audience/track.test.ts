import { startStack, type TestStack } from '../helpers/stack';
import { countOf, query } from './helpers';
import { tenant } from '../helpers/tenants';
import { hear } from '../helpers/seed';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

async function nothingStored(projectId: string) {
  expect(await countOf(stack, 'contacts', projectId)).toBe(0);
  expect(await countOf(stack, 'events', projectId)).toBe(0);
  expect(await countOf(stack, 'contact_fields', projectId)).toBe(0);
}

describe('POST /v1/track', () => {
  it('creates the contact and the event and answers with the envelope', async () => {
    const { c, project } = await tenant(stack);
    // Named by an automation, the event enters the outbox with it (test/audience/heard-events.test.ts).
    await hear(stack, project.id, 'signed-up');
    const before = Date.now();
    const res = await c.track({
      email: 'Signup@Example.test',
      event: 'signed-up',
      data: { plan: 'pro', promo: { value: 'X', persistent: false } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        contact: expect.stringMatching(/^[0-9a-f-]{36}$/),
        event: expect.stringMatching(/^[0-9a-f-]{36}$/),
        timestamp: expect.any(String),
      },
    });
    expect(new Date(res.body.data.timestamp).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const [event] = await query<{ project_id: string; contact_id: string; name: string; data: object; queued: boolean }>(
      stack,
      'select e.*, exists (select 1 from event_outbox o where o.event_id = e.id) as queued from events e where e.id = ?',
      [res.body.data.event],
    );
    expect(event).toMatchObject({
      project_id: project.id,
      contact_id: res.body.data.contact,
      name: 'signed-up',
      data: { plan: 'pro', promo: 'X' },
      queued: true,
    });
    const contact = await c.get(`/contacts/${res.body.data.contact}`).expect(200);
    expect(contact.body).toMatchObject({ email: 'signup@example.test', subscribed: true, data: { plan: 'pro' } });
  });

  it('records a new event each time the same event is tracked, on the same contact', async () => {
    const { c, project } = await tenant(stack);
    const a = await c.track({ email: 'again@example.test', event: 'click' }).expect(200);
    const b = await c.track({ email: 'again@example.test', event: 'click' }).expect(200);
    expect(b.body.data.contact).toBe(a.body.data.contact);
    expect(b.body.data.event).not.toBe(a.body.data.event);
    expect(await countOf(stack, 'events', project.id)).toBe(2);
  });

  it.each([
    'email.sent',
    'email.anything',
    'contact.subscribed',
    'contact.unsubscribed',
    'segment.vip.entry',
    'segment.big-spenders.exit',
    ' email.open ',
  ])('refuses the reserved name %j with 422 reserved_event, storing nothing', async (event) => {
    const { c, project } = await tenant(stack);
    const res = await c.track({ email: 'r@example.test', event });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.errors).toEqual([expect.objectContaining({ field: 'event', code: 'reserved_event' })]);
    await nothingStored(project.id);
  });

  it.each(['contact.created', 'segment.vip', 'emails.sent', 'segment..entry.x', 'Email.sent'])(
    'accepts the unreserved name %j',
    async (event) => {
      const { c } = await tenant(stack);
      expect((await c.track({ email: 'ok@example.test', event })).status).toBe(200);
    },
  );

  it('refuses a lone UTF-16 surrogate in a value or a key with 422, storing nothing', async () => {
    const { c, project } = await tenant(stack);
    for (const [data, field] of [
      [{ note: 'a\ud800' }, 'data.note'],
      [{ ['k\udc00']: 1 }, 'data.k\udc00'],
      [{ list: ['ok', '\udbff'] }, 'data.list.1'],
    ] as const) {
      const res = await c.track({ email: 's@example.test', event: 'x', data });
      expect(res.status).toBe(422);
      expect(res.body.error.errors).toEqual([expect.objectContaining({ field, code: 'invalid_string' })]);
    }
    await nothingStored(project.id);
  });

  it('refuses bad bodies with 422 and field errors, storing nothing', async () => {
    const { c, project } = await tenant(stack);
    const cases: Array<[object | undefined, string]> = [
      [{ event: 'x' }, 'email'],
      [{ email: 'not-an-email', event: 'x' }, 'email'],
      [{ email: 'a@example.test' }, 'event'],
      [{ email: 'a@example.test', event: '' }, 'event'],
      [{ email: 'a@example.test', event: '   ' }, 'event'],
      [{ email: 'a@example.test', event: 'x'.repeat(256) }, 'event'],
      [{ email: 'a@example.test', event: 'x', subscribed: 'yes' }, 'subscribed'],
      [{ email: 'a@example.test', event: 'x', data: [1] }, 'data'],
    ];
    for (const [body, field] of cases) {
      const res = await c.track(body!);
      expect(res.status).toBe(422);
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const empty = await stack.http().post('/v1/track').set('Authorization', `Bearer ${project.public}`);
    expect(empty.status).toBe(422);
    await nothingStored(project.id);
  });

  it('accepts only the public key: a secret, missing or unknown key is 401 INVALID_API_KEY', async () => {
    const { project } = await tenant(stack);
    const body = { email: 'k@example.test', event: 'x' };
    for (const auth of [`Bearer ${project.secret}`, 'Bearer pk_unknown', undefined]) {
      const req = stack.http().post('/v1/track');
      const res = await (auth ? req.set('Authorization', auth) : req).send(body);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('INVALID_API_KEY');
    }
    await nothingStored(project.id);
  });
});

describe('POST /events/track', () => {
  it('behaves as /v1/track with the secret key, and refuses the public key', async () => {
    const { c, project } = await tenant(stack);
    const res = await c
      .post('/events/track')
      .send({ email: 'dash@example.test', event: 'manual', data: { a: 1 } })
      .expect(200);
    expect(res.body).toMatchObject({ success: true, data: { contact: expect.any(String), event: expect.any(String) } });
    const reserved = await c.post('/events/track').send({ email: 'dash@example.test', event: 'email.click' });
    expect(reserved.status).toBe(422);
    expect(reserved.body.error.errors[0].code).toBe('reserved_event');
    const wrongKey = await stack
      .http()
      .post('/events/track')
      .set('Authorization', `Bearer ${project.public}`)
      .send({ email: 'p@example.test', event: 'x' });
    expect(wrongKey.status).toBe(401);
    expect(await countOf(stack, 'events', project.id)).toBe(1);
    expect(await countOf(stack, 'contacts', project.id)).toBe(1);
  });
});
