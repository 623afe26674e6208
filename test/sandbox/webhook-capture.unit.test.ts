import { Webhook } from 'standardwebhooks';
import { startWebhookCapture, verdictOf, type WebhookCapture } from '../../scripts/lib/webhook-capture';
import { openEventStream } from '../helpers/event-stream';

/** The development webhook capture (scripts/lib/webhook-capture.ts): receives, answers 200, checks signatures. */
let capture: WebhookCapture;
const secret = `whsec_${Buffer.from('a development signing secret!').toString('base64')}`;

beforeAll(async () => {
  capture = await startWebhookCapture(0, [secret]);
});
afterAll(() => capture.stop());

async function deliver(body: string, signWith: string | null): Promise<Response> {
  const id = `msg_${Math.random().toString(36).slice(2)}`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signWith) {
    // One reading of the clock: signed at another second than the header names, the signature would not verify.
    const at = new Date();
    headers['webhook-id'] = id;
    headers['webhook-timestamp'] = String(Math.floor(at.getTime() / 1000));
    headers['webhook-signature'] = new Webhook(signWith).sign(id, at, body);
  }
  return fetch(capture.url, { method: 'POST', headers, body });
}

it('answers 200 and checks each request against the secrets it knows, as a receiver would', async () => {
  const other = `whsec_${Buffer.from('some other endpoint secret').toString('base64')}`;
  expect((await deliver('{"type":"email.delivery","data":{}}', secret)).status).toBe(200);
  expect((await deliver('{"type":"email.open"}', other)).status).toBe(200);
  expect((await deliver('{"type":"plain"}', null)).status).toBe(200);
  const [signed, foreign, unsigned] = capture.requests();
  expect(signed!.verdict).toEqual({ ok: true, secret });
  expect(foreign!.verdict).toEqual({ ok: false, reason: 'matches none of the 1 known secret(s)' });
  expect(unsigned!.verdict).toEqual({ ok: false, reason: 'unsigned: no webhook-signature header' });

  // A secret pasted on the page checks the requests after it, and again those none verified before: an endpoint's
  // first test message arrives before its secret is pasted.
  const form = await fetch(`http://127.0.0.1:${capture.port}/secrets`, {
    method: 'POST',
    body: new URLSearchParams({ secret: other }),
    redirect: 'manual',
  });
  expect(form.status).toBe(303);
  expect(capture.requests()[1]!.verdict).toEqual({ ok: true, secret: other });
  expect(capture.requests()[2]!.verdict).toEqual({ ok: false, reason: 'unsigned: no webhook-signature header' });
  await deliver('{"type":"email.click"}', other);
  expect(capture.requests().at(-1)!.verdict).toEqual({ ok: true, secret: other });

  const page = await (await fetch(`http://127.0.0.1:${capture.port}/`)).text();
  expect(page).toContain('signature verified');
  expect(page).toContain('email.delivery');
  expect(page).toContain('not verified: unsigned');
});

it('checks a request against a secret added later at its arrival time, so a stale timestamp stays refused', () => {
  const body = '{"type":"email.delivery"}';
  const at = new Date('2026-11-28T12:00:00Z');
  const headers = (sentAt: Date) => ({
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign('msg_1', sentAt, body),
  });
  expect(verdictOf(body, headers(at), [secret], at)).toEqual({ ok: true, secret });
  expect(verdictOf(body, headers(new Date(at.getTime() - 10 * 60_000)), [secret], at)).toEqual({
    ok: false,
    reason: 'matches none of the 1 known secret(s)',
  });
});

it('stops while a page follows its event stream, which reconnects', async () => {
  const other = await startWebhookCapture(0);
  const stream = await openEventStream(other.port);
  const stopped = other.stop();
  // The page's EventSource comes back at once; the stop must not wait for it.
  await expect(openEventStream(other.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  await expect(stopped).resolves.toBeUndefined();
  stream.destroy();
});
