import { randomBytes } from 'node:crypto';
import type { WebhookServer } from '../automation/webhook-server';
import { recipient, settled } from '../emails/helpers';
import { senderTenant } from '../helpers/tenants';
import { addEndpoint, aroundWebhookTests, verified, waitForCount, type WebhookStack } from '../webhooks/helpers';

let ws: WebhookStack;
let server: WebhookServer;
// The stack's pump: the stack stops it before closing the database and SMTP connections it uses.
aroundWebhookTests(
  (started, receiver) => {
    ws = started;
    server = receiver;
  },
  { pump: true },
);

describe('tags and suppressions in signed webhooks', () => {
  it('delivers email.sent with the email tags, and suppression.added and email.suppressed, signed', async () => {
    const t = await senderTenant(ws.stack);
    const path = `/tags-${randomBytes(3).toString('hex')}`;
    const endpoint = await addEndpoint(t, { url: server.url(path), events: ['email.*', 'suppression.*'] });
    const to = recipient('tagged');
    const tags = { order: 'A-1042' };
    const sent = await t.c.post('/v1/send').send({ to, from: t.from, subject: 'Receipt', body: '<p>Receipt</p>', tags }).expect(200);
    const emailId = sent.body.data.emails[0].email as string;
    await settled(ws.stack, emailId);
    await t.c
      .post('/suppressions')
      .send({ emails: [to] })
      .expect(200);
    const held = await t.c.post('/v1/send').send({ to, from: t.from, subject: 'Again', body: '<p>Again</p>', tags }).expect(200);
    const heldId = held.body.data.emails[0].email as string;
    expect((await settled(ws.stack, heldId)).status).toBe('SUPPRESSED');

    await waitForCount('three deliveries', () => server.to(path).length, 3);
    const bodies = verified(server.to(path), endpoint.secret);
    expect(bodies.map((b) => b.type)).toEqual(['email.sent', 'suppression.added', 'email.suppressed']);
    expect(bodies[0]!.data).toMatchObject({ name: 'email.sent', contact: { email: to }, data: { emailId, tags } });
    expect(bodies[1]!.data.data).toEqual({ email: to, reason: 'MANUAL', emailId: null });
    expect(bodies[2]!.data.data).toMatchObject({ emailId: heldId, reason: 'MANUAL', tags });
  });
});
