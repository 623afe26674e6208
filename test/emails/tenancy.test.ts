import { emailStatusCounts } from '../../src/modules/emails/status';
import { startStack, type TestStack } from '../helpers/stack';
import { bearer, uniqueDomain } from '../domains/helpers';
import { recipient, send, settled, storedCounts } from './helpers';
import { senderTenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ pump: true, terminateWorkflows: true });
});
afterAll(() => stack?.close());

/** Long enough for a second delivery to show up, were there one. */
const settle = () => new Promise((r) => setTimeout(r, 1_000));

describe('/v1/send with Idempotency-Key', () => {
  it('performs a request once: a repeat is 409 IDEMPOTENCY_KEY_REUSED and sends nothing more', async () => {
    const { project, from } = await senderTenant(stack);
    const body = { to: recipient(), from, subject: 'Once', body: 'x' };
    const key = `send-${recipient()}`;
    const first = await send(stack, project, body).set('Idempotency-Key', key).expect(200);
    const again = await send(stack, project, body).set('Idempotency-Key', key).expect(409);
    expect(again.body.error).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
      details: { key, originalRequest: 'POST /v1/send', originalStatusCode: 200 },
    });
    await settled(stack, first.body.data.emails[0].email);
    await settle();
    expect(stack.smtp.to(body.to)).toHaveLength(1);
    expect((await storedCounts(stack, project.id)).emails).toBe(1);
  });

  it('releases the key when the request was refused, so the corrected request can use it', async () => {
    const { project, from } = await senderTenant(stack);
    const key = `send-${recipient()}`;
    await send(stack, project, { to: 'bad', from, subject: 'S', body: 'x' }).set('Idempotency-Key', key).expect(422);
    await send(stack, project, { to: recipient(), from: `hello@${uniqueDomain()}`, subject: 'S', body: 'x' })
      .set('Idempotency-Key', key)
      .expect(403);
    await send(stack, project, { to: recipient(), from, subject: 'S', body: 'x' }).set('Idempotency-Key', key).expect(200);
  });

  it('shares keys with /v1/track within a project, not across projects', async () => {
    const a = await senderTenant(stack);
    const b = await senderTenant(stack);
    const key = `shared-${recipient()}`;
    await stack
      .http()
      .post('/v1/track')
      .set('Authorization', `Bearer ${a.project.public}`)
      .set('Idempotency-Key', key)
      .send({ email: recipient(), event: 'signed-up' })
      .expect(200);
    await send(stack, a.project, { to: recipient(), from: a.from, subject: 'S', body: 'x' }).set('Idempotency-Key', key).expect(409);
    await send(stack, b.project, { to: recipient(), from: b.from, subject: 'S', body: 'x' }).set('Idempotency-Key', key).expect(200);
  });
});

describe('tenant isolation', () => {
  it("cannot send another project's template or from another project's verified domain", async () => {
    const a = await senderTenant(stack);
    const b = await senderTenant(stack);
    const template = await stack
      .http()
      .post('/templates')
      .set('Authorization', bearer(a.project))
      .send({ name: 'T', subject: 'S', body: 'B', from: a.from })
      .expect(201);
    const viaTemplate = await send(stack, b.project, { to: recipient(), template: template.body.id }).expect(404);
    expect(viaTemplate.body.error.code).toBe('TEMPLATE_NOT_FOUND');
    const viaDomain = await send(stack, b.project, { to: recipient(), from: a.from, subject: 'S', body: 'B' }).expect(403);
    expect(viaDomain.body.error.code).toBe('INTERNAL_SERVER_ERROR');
    expect(await storedCounts(stack, b.project.id)).toEqual({ emails: 0, contacts: 0, events: 0 });
  });

  it("keeps each project's contacts and counts to itself when both send to one address", async () => {
    const a = await senderTenant(stack);
    const b = await senderTenant(stack);
    const to = recipient();
    const fromA = await send(stack, a.project, { to: { name: 'In A', email: to }, from: a.from, subject: 'A', body: 'x' }).expect(200);
    const fromB = await send(stack, b.project, { to, from: b.from, subject: 'B', body: 'x', data: { plan: 'b' } }).expect(200);
    expect(fromA.body.data.emails[0].contact.id).not.toBe(fromB.body.data.emails[0].contact.id);
    await settled(stack, fromA.body.data.emails[0].email);
    await settled(stack, fromB.body.data.emails[0].email);
    const em = stack.deps.orm.em.fork();
    expect((await emailStatusCounts(em, a.project.id)).byStatus.SENT).toBe(1);
    expect((await emailStatusCounts(em, b.project.id)).byStatus.SENT).toBe(1);
    const contactB = await stack
      .http()
      .get(`/contacts/${fromB.body.data.emails[0].contact.id}`)
      .set('Authorization', bearer(b.project))
      .expect(200);
    expect(contactB.body.data).toEqual({ plan: 'b' });
    await stack.http().get(`/contacts/${fromA.body.data.emails[0].contact.id}`).set('Authorization', bearer(b.project)).expect(404);
  });
});
