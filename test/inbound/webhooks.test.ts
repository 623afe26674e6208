import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import { startSmtpListeners, type SmtpListeners } from '../../src/app/smtp-listeners';
import type { WebhookServer } from '../automation/webhook-server';
import { senderTenant } from '../helpers/tenants';
import { addEndpoint, aroundWebhookTests, verified, waitForCount, type WebhookStack } from '../webhooks/helpers';
import { inboundOn } from './helpers';

let ws: WebhookStack;
let server: WebhookServer;
let listeners: SmtpListeners | undefined;
aroundWebhookTests((started, receiver) => {
  ws = started;
  server = receiver;
});
afterAll(() => listeners?.close());

describe('inbound mail in webhooks', () => {
  it('delivers email.received, signed, with the inbound id and the sender contact', async () => {
    listeners = await startSmtpListeners(ws.stack.deps, { inbound: 0 });
    const t = await senderTenant(ws.stack);
    await inboundOn(t);
    const path = `/inbound-${randomBytes(3).toString('hex')}`;
    const endpoint = await addEndpoint(t, { url: server.url(path), events: ['email.received'] });
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: listeners.inboundPort!, secure: false, ignoreTLS: true });
    const info = await transport.sendMail({
      from: 'writer@client.example.test',
      to: `hello@${t.domain}`,
      subject: 'A question',
      text: 'Hi',
    });
    transport.close();
    const inboundId = info.response.split(' ').at(-1);

    await waitForCount('one delivery', () => server.to(path).length, 1);
    const [body] = verified(server.to(path), endpoint.secret);
    expect(body!.type).toBe('email.received');
    expect(body!.data).toMatchObject({
      name: 'email.received',
      contact: { email: 'writer@client.example.test' },
      data: { inboundId, to: [`hello@${t.domain}`], subject: 'A question', inReplyToEmail: null },
    });
  });
});
