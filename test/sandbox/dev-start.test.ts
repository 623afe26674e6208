import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { startStack, type TestStack } from '../helpers/stack';
import { workerDatabaseUrl } from '../helpers/database';
import { startWorker } from '../helpers/temporal';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { uniqueDomain } from '../domains/helpers';
import { uniqueEmail } from '../helpers/fixtures';
import { startDevDns } from '../../scripts/lib/dev-dns';
import { describeDevAccount, ensureDevAccount, SAMPLE_CONTACTS, verificationToken } from '../../scripts/lib/dev-account';
import { developmentAids, developmentEnv } from '../../scripts/lib/development';
import { authenticationResults } from '../../scripts/lib/mail-capture';
import { startWebhookCapture, type WebhookCapture } from '../../scripts/lib/webhook-capture';
import type { EventDispatcher } from '../../src/modules/outbox/dispatcher';
import { startDispatcher } from '../automation/engine';

const run = promisify(execFile);

describe('what npm start adds for development', () => {
  it('is off with production settings: no sandbox, no development DNS', () => {
    expect(developmentAids({ NODE_ENV: 'production' })).toEqual({ sandbox: false, devDns: false });
    expect(developmentEnv(developmentAids({ NODE_ENV: 'production' }), null)).toEqual({});
    expect(developmentAids({})).toEqual({ sandbox: true, devDns: true });
    expect(developmentAids({ DNS_SERVERS: '10.0.0.1:53', SANDBOX_ENABLED: 'false' })).toEqual({ sandbox: false, devDns: false });
  });
});

describe('the development account, against the development DNS server', () => {
  let stack: TestStack;
  let devDns: Awaited<ReturnType<typeof startDevDns>>;
  let apiUrl: string;
  let dispatcher: EventDispatcher;
  let hooks: WebhookCapture;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'postwire-dev-'));
  const options = {
    file: path.join(dir, 'dev-account.json'),
    email: uniqueEmail('dev'),
    domain: uniqueDomain('dev'),
    // npm start reads the mail capture; here the stack's SMTP sink receives the verification mail.
    inbox: async (to: string) => (await stack.smtp.waitFor((m) => m.to.includes(to) && verificationToken(m.raw) !== null)).raw,
    get webhookCaptureUrl() {
      return hooks.url;
    },
  };

  beforeAll(async () => {
    devDns = await startDevDns(0, await workerDatabaseUrl());
    hooks = await startWebhookCapture(0);
    stack = await startStack({
      pump: true,
      smtpListeners: true,
      worker: (deps) => startWorker(deps),
      terminateWorkflows: true,
      env: developmentEnv({ sandbox: true }, devDns.address) as Record<string, string>,
    });
    // The worker process's events outbox, which starts automations on tracked events.
    dispatcher = await startDispatcher(stack);
    apiUrl = `http://127.0.0.1:${(stack.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await stack?.close();
    await devDns?.stop();
    await hooks?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is made once, its address verified, with a verified sender domain and subscribed sample contacts, and found the same on a second start', async () => {
    const first = await ensureDevAccount(apiUrl, options);
    expect(first).toMatchObject({ email: options.email, domain: { name: options.domain }, sender: `hello@${options.domain}` });
    const [domain] = await sql<{ verified: boolean }>(stack, 'select verified from domains where id = ?', [first.domain.id]);
    expect(domain!.verified).toBe(true);
    // No "verify your address" note greets the account: it was verified through the emailed link.
    const [user] = await sql<{ email_verified: boolean }>(stack, 'select email_verified from users where email = ?', [options.email]);
    expect(user!.email_verified).toBe(true);
    // The README's campaign reaches the simulator addresses: they start as subscribed contacts.
    const contacts = await sql<{ email: string; subscribed: boolean }>(
      stack,
      'select email, subscribed from contacts where project_id = ? order by email',
      [first.project.id],
    );
    expect(contacts).toEqual(
      SAMPLE_CONTACTS.map((c) => ({ email: c.email, subscribed: true })).sort((a, b) => a.email.localeCompare(b.email)),
    );
    expect(await ensureDevAccount(apiUrl, options)).toEqual(first);
    const [{ n }] = await sql<{ n: string }>(
      stack,
      'select count(*) as n from projects p join domains d on d.project_id = p.id where d.domain = ?',
      [options.domain],
    );
    expect(Number(n)).toBe(1);
  });

  it('the printed curl commands send to delivered@ and start the automation, which is delivered too', async () => {
    const account = await ensureDevAccount(apiUrl, options);
    const printed = describeDevAccount(apiUrl, account);
    const curls = printed.split('\n').filter((line) => line.trim().startsWith('curl ') && !line.includes('/activity'));
    expect(curls).toHaveLength(2);
    for (const line of curls) {
      const { stdout } = await run('sh', ['-c', line.trim()]);
      expect(JSON.parse(stdout)).toMatchObject({ success: true });
    }
    const delivered = await waitFor(
      'both emails to be DELIVERED',
      async () => {
        const rows = await sql<{ source_type: string; status: string }>(
          stack,
          'select source_type, status from emails where project_id = ? order by source_type',
          [account.project.id],
        );
        return rows.length === 2 && rows.every((r) => r.status === 'DELIVERED') ? rows : undefined;
      },
      30_000,
    );
    expect(delivered.map((r) => r.source_type)).toEqual(['TRANSACTIONAL', 'WORKFLOW']);
  });

  it('has an endpoint to the webhook capture on loopback, whose test message arrives there signed and verified', async () => {
    const account = await ensureDevAccount(apiUrl, options);
    expect(account.webhook).toMatchObject({ secret: expect.stringMatching(/^whsec_/) });
    hooks.addSecret(account.webhook!.secret);
    await stack
      .http()
      .post(`/webhook-endpoints/${account.webhook!.id}/test`)
      .set('Authorization', `Bearer ${account.project.secret}`)
      .expect(200);
    const received = await waitFor('the test message at the capture', async () =>
      hooks.requests().find((r) => JSON.parse(r.body).type === 'webhook.test'),
    );
    expect(received.verdict).toEqual({ ok: true, secret: account.webhook!.secret });
  });

  it('a domain added through the API while developing verifies the same way', async () => {
    const account = await ensureDevAccount(apiUrl, options);
    const auth = `Bearer ${account.project.secret}`;
    const added = await stack
      .http()
      .post('/domains')
      .set('Authorization', auth)
      .send({ domain: uniqueDomain('later') })
      .expect(201);
    const res = await stack.http().get(`/domains/${added.body.id}/verify`).set('Authorization', auth).expect(200);
    expect(res.body.verified).toBe(true);
  });

  it('mail to other addresses reaches the mail capture DKIM-signed, and its check passes against the development DNS', async () => {
    const account = await ensureDevAccount(apiUrl, options);
    const to = uniqueEmail('reader');
    await stack
      .http()
      .post('/v1/send')
      .set('Authorization', `Bearer ${account.project.secret}`)
      .send({ from: account.sender, to, subject: 'Signed', body: '<p>Hi</p>' })
      .expect(200);
    const mail = await stack.smtp.waitFor((m) => m.to.includes(to));
    expect(await authenticationResults(Buffer.from(mail.raw), [devDns.address])).toBe(
      `Authentication-Results: postwire-mail-capture; dkim=pass header.d=${options.domain}\r\n`,
    );
    expect(await authenticationResults(Buffer.from(mail.raw.replace('Subject: Signed', 'Subject: Changed')), [devDns.address])).toMatch(
      /dkim=fail/,
    );
  });

  it('the printed SMTP commands relay a message to the mail capture and deliver one to the inbound server', async () => {
    const account = await ensureDevAccount(apiUrl, options);
    const ports = { inbound: stack.listeners!.inboundPort!, relay: stack.listeners!.relayPort! };
    const lines = describeDevAccount(apiUrl, account, ports)
      .split('\n')
      .map((line) => line.trim());
    const relayLine = lines.find((line) => line.startsWith('node -e'))!;
    const { stdout } = await run('sh', ['-c', relayLine], { cwd: path.resolve(__dirname, '..', '..') });
    expect(stdout).toMatch(/^250 2\.0\.0 Ok: queued as /);
    const relayed = await stack.smtp.waitFor((m) => m.to.includes('you@example.com') && m.raw.includes('Subject: Relayed'), 30_000);
    expect(await authenticationResults(Buffer.from(relayed.raw), [devDns.address])).toMatch(/dkim=pass/);
    const inboundLine = lines.find((line) => line.startsWith('printf'))!;
    await run('sh', ['-c', inboundLine]);
    const list = await stack.http().get('/inbound').set('Authorization', `Bearer ${account.project.secret}`).expect(200);
    // Addressed as a reply would be: the Inbound page's To column shows the development domain's address.
    expect(list.body.data[0]).toMatchObject({
      subject: 'Hello',
      from: { email: 'you@example.com' },
      to: [{ email: `support@${account.domain.name}` }],
    });
  });
});
