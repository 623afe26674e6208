import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type { TestStack } from '../helpers/stack';

/** The relay's port of a stack started with `smtpListeners`. */
export function relayPort(stack: TestStack): number {
  const port = stack.listeners?.relayPort;
  if (port === null || port === undefined) throw new Error('the stack runs no SMTP relay (smtpListeners)');
  return port;
}

/** Sends through the relay as an application configured with an SMTP server would: nodemailer, AUTH with the key. */
export async function relay(stack: TestStack, password: string | null, message: Mail.Options) {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: relayPort(stack),
    secure: false,
    ignoreTLS: true,
    ...(password === null ? {} : { auth: { user: 'app', pass: password } }),
  });
  try {
    return await transport.sendMail(message);
  } finally {
    transport.close();
  }
}
