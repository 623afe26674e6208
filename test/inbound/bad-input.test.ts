import { smtpDialog } from '../helpers/smtp-dialog';
import { sql } from '../helpers/seed';
import { startStack, type TestStack } from '../helpers/stack';
import { senderTenant, type SenderTenant } from '../helpers/tenants';
import { deliverInbound, inboundOn, inboundPort } from './helpers';

let stack: TestStack;
let t: SenderTenant;
beforeAll(async () => {
  stack = await startStack({ smtpListeners: true });
  t = await senderTenant(stack);
  await inboundOn(t);
}, 60_000);
afterAll(() => stack.close());

const MB = 1024 * 1024;
const kept = async () =>
  Number((await sql<{ n: string }>(stack, 'select count(*) as n from inbound_emails where project_id = ?', [t.project.id]))[0]!.n);

/** One transaction on a raw socket: the answers to MAIL, the RCPTs, DATA and the message. */
const transaction = (message: Buffer | string, options: { rcpt?: string[]; mailFrom?: string } = {}) =>
  smtpDialog(inboundPort(stack), [
    'EHLO sender.example.test',
    options.mailFrom ?? 'MAIL FROM:<someone@client.example.test>',
    ...(options.rcpt ?? [`RCPT TO:<support@${t.domain}>`]).map((r) => r),
    'DATA',
    Buffer.concat([Buffer.isBuffer(message) ? message : Buffer.from(message, 'latin1'), Buffer.from('\r\n.\r\n')]),
    'QUIT',
  ]);

const malformed = () => transaction('\r\nA body without any header field');
const headerBomb = () =>
  transaction(`${'X-Bomb: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n'.repeat(20_000)}Subject: bomb\r\n\r\nHi`);

describe('inbound bad input', () => {
  it('refuses malformed MIME and a header bomb with 554 5.6.0, storing nothing', async () => {
    const before = await kept();
    expect((await malformed()).at(-2)).toMatch(/^554 5\.6\.0 /);
    expect((await headerBomb()).at(-2)).toMatch(/^554 5\.6\.0 /);
    expect(await kept()).toBe(before);
  });

  it('keeps 8-bit headers and NUL bytes as text it can store', async () => {
    const message = Buffer.concat([
      Buffer.from('From: =?utf-8?q?Ren=C3=A9?= <rene@client.example.test>\r\nSubject: caf'),
      Buffer.from([0xe9, 0x20, 0xc3, 0xa9, 0x00]),
      Buffer.from('\r\n\r\nBody with a NUL\u0000 byte\r\n'),
    ]);
    const answers = await transaction(message);
    expect(answers.at(-2)).toMatch(/^250 2\.0\.0 Ok: kept as /);
    const id = answers.at(-2)!.split(' ').at(-1)!;
    const one = await t.c.get(`/inbound/${id}`).expect(200);
    expect(one.body.data.subject).toMatch(/^caf. é$/);
    expect(one.body.data.text).toMatch(/^Body with a NUL byte\n+$/);
    expect(one.body.data.from).toEqual({ email: 'rene@client.example.test', name: 'René' });
  });

  it('refuses a message over the size limit at MAIL when declared, at the end of DATA when not', async () => {
    const before = await kept();
    const declared = await smtpDialog(inboundPort(stack), [
      'EHLO x.example.test',
      `MAIL FROM:<a@client.example.test> SIZE=${30 * MB}`,
      'QUIT',
    ]);
    expect(declared[2]).toMatch(/^552 /);
    const big = await transaction(`Subject: big\r\n\r\n${`${'y'.repeat(1000)}\r\n`.repeat(26 * 1024)}`);
    expect(big.at(-2)).toMatch(/^552 5\.3\.4 /);
    expect(await kept()).toBe(before);
  });

  it('refuses the 51st recipient with 452 4.5.3 and keeps the message once for the 50', async () => {
    const rcpt = Array.from({ length: 200 }, (_, i) => `RCPT TO:<r${i}@${t.domain}>`);
    const answers = await transaction('Subject: many\r\n\r\nHi', { rcpt });
    expect(answers.slice(3, 53).every((a) => a.startsWith('250'))).toBe(true);
    expect(answers[53]).toMatch(/^452 4\.5\.3 /);
    expect(answers.at(-2)).toMatch(/^250 2\.0\.0 Ok: kept as [0-9a-f-]{36}$/);
  });

  it('keeps serving others while flooded with bad input', async () => {
    const before = await kept();
    const flood = Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? malformed() : headerBomb())));
    const info = await deliverInbound(stack, { from: 'calm@client.example.test', to: `support@${t.domain}`, subject: 'Calm', text: 'Hi' });
    expect(info.response).toMatch(/^250 2\.0\.0 Ok: kept as /);
    const answers = await flood;
    expect(answers.every((a) => /^554 5\.6\.0 /.test(a.at(-2)!))).toBe(true);
    expect(await kept()).toBe(before + 1);
  });
});
