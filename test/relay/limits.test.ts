import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { plain, smtpDialog } from '../helpers/smtp-dialog';
import { sql } from '../helpers/seed';
import { startStack, type TestStack } from '../helpers/stack';
import { senderTenant, type SenderTenant } from '../helpers/tenants';
import { relay, relayPort } from './helpers';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'postwire-relay-tls-'));
const cert = path.join(dir, 'cert.pem');
const key = path.join(dir, 'key.pem');
let stack: TestStack;
beforeAll(async () => {
  // The deployment's certificate: self-signed for the test.
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', key, '-out', cert],
    {
      stdio: 'ignore',
    },
  );
  stack = await startStack({
    smtpListeners: true,
    env: {
      RATE_LIMIT_ENABLED: 'true',
      RATE_LIMIT_SEND_PER_SECOND: '1',
      RATE_LIMIT_SEND_BURST: '5',
      RELAY_TLS_CERT: cert,
      RELAY_TLS_KEY: key,
    },
  });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const queued = async (t: SenderTenant) =>
  Number((await sql<{ n: string }>(stack, 'select count(*) as n from emails where project_id = ?', [t.project.id]))[0]!.n);

describe('the relay: STARTTLS and limits', () => {
  it('offers STARTTLS with the deployment certificate, and AUTH works over it', async () => {
    const t = await senderTenant(stack);
    const ehlo = await smtpDialog(relayPort(stack), ['EHLO app.example.test', 'QUIT']);
    expect(ehlo[1]).toMatch(/STARTTLS/);
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: relayPort(stack),
      secure: false,
      requireTLS: true,
      tls: { rejectUnauthorized: false },
      auth: { user: 'app', pass: t.project.secret },
    });
    const info = await transport.sendMail({ from: t.from, to: 'tls@relay.example.test', subject: 'Over TLS', text: 'Hi' });
    transport.close();
    expect(info.response).toMatch(/^250 2\.0\.0 Ok: queued as /);
    expect(await queued(t)).toBe(1);
  });

  it('answers 451 4.7.1 once the send bucket is spent, queueing nothing', async () => {
    const t = await senderTenant(stack);
    // As for /v1/send/batch, a message is let through while a token is left and may spend the bucket below zero.
    const six = Array.from({ length: 6 }, (_, i) => `r${i}@relay.example.test`);
    await relay(stack, t.project.secret, { from: t.from, to: six, subject: 'Six', text: 'Hi' });
    expect(await queued(t)).toBe(6);
    const answers = await smtpDialog(relayPort(stack), [
      'EHLO app.example.test',
      `AUTH PLAIN ${plain('app', t.project.secret)}`,
      `MAIL FROM:<${t.from}>`,
      'RCPT TO:<a@relay.example.test>',
      'DATA',
      `From: ${t.from}\r\nSubject: One more\r\n\r\nHi\r\n.`,
      'QUIT',
    ]);
    expect(answers[6]).toMatch(/^451 4\.7\.1 /);
    expect(await queued(t)).toBe(6);
  });

  it('answers 554 5.7.0 at the end of DATA when the recipients would pass the billing cap, and at MAIL once it is reached', async () => {
    const t = await senderTenant(stack);
    await stack
      .http()
      .put(`/users/@me/projects/${t.project.id}/billing-limits`)
      .set('Cookie', t.user.cookie)
      .send({ limits: { TRANSACTIONAL: 1 } })
      .expect(200);
    await expect(
      relay(stack, t.project.secret, { from: t.from, to: ['x@relay.example.test', 'y@relay.example.test'], subject: 'Two', text: 'Hi' }),
    ).rejects.toMatchObject({ responseCode: 554, response: expect.stringMatching(/^554 5\.7\.0 /) });
    expect(await queued(t)).toBe(0);
    await relay(stack, t.project.secret, { from: t.from, to: 'x@relay.example.test', subject: 'One', text: 'Hi' });
    const refused = await smtpDialog(relayPort(stack), [
      'EHLO app.example.test',
      `AUTH PLAIN ${plain('app', t.project.secret)}`,
      `MAIL FROM:<${t.from}>`,
      'QUIT',
    ]);
    expect(refused[3]).toMatch(/^554 5\.7\.0 /);
    expect(await queued(t)).toBe(1);
  });
});
