import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type { TestStack } from '../helpers/stack';
import type { SenderTenant } from '../helpers/tenants';

/** The inbound SMTP server's port of a stack started with `smtpListeners`. */
export function inboundPort(stack: TestStack): number {
  const port = stack.listeners?.inboundPort;
  if (port === null || port === undefined) throw new Error('the stack runs no inbound SMTP server (smtpListeners)');
  return port;
}

/** Sends a message to the stack's inbound server as another mail server would: plain SMTP on loopback. */
export async function deliverInbound(stack: TestStack, message: Mail.Options) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: inboundPort(stack), secure: false, ignoreTLS: true });
  try {
    return await transport.sendMail(message);
  } finally {
    transport.close();
  }
}

/** Turns inbound on for the tenant's verified domain. */
export async function inboundOn(t: SenderTenant): Promise<void> {
  const res = await t.c.patch(`/domains/${t.domainBody.id}`).send({ inbound: true });
  if (res.status !== 200 || res.body.inbound !== true)
    throw new Error(`PATCH /domains answered ${res.status}: ${JSON.stringify(res.body)}`);
}
