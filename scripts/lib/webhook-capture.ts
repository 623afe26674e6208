import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { pageCss, toolBar } from '../../src/design/page';
import { escape } from './mail-capture-pages';

/**
 * The development webhook capture (`npm start`, docs/webhooks.md "Trying webhooks locally"): an endpoint on
 * loopback that receives Postwire's webhooks, answers 200, and a page that lists each request with its
 * Standard Webhooks signature checked, as a receiver would check it, against the signing secrets it knows (the
 * development account's endpoint's, and any pasted on the page). Requests are kept in memory, the newest 200.
 */

export interface CapturedRequest {
  seq: number;
  at: Date;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /**
   * The signature check: which known secret verified it, or why none did. A secret added later checks again the
   * requests none verified, at their arrival time (the endpoint's secret is pasted after its first test message).
   */
  verdict: { ok: true; secret: string } | { ok: false; reason: string };
}

export interface WebhookCapture {
  port: number;
  /** Where to point an endpoint: `http://127.0.0.1:<port>/hooks` (any path is captured). */
  url: string;
  addSecret(secret: string): void;
  requests(): CapturedRequest[];
  stop(): Promise<void>;
}

const KEEP = 200;
const hint = (secret: string) => `…${secret.slice(-4)}`;

/** Checks a request's signature against each secret as a receiver would have at `at`, its arrival (verifyAt). */
export function verdictOf(body: string, headers: Record<string, string>, secrets: string[], at = new Date()): CapturedRequest['verdict'] {
  if (!headers['webhook-signature']) return { ok: false, reason: 'unsigned: no webhook-signature header' };
  if (secrets.length === 0) return { ok: false, reason: 'no signing secret known: paste the endpoint’s secret below' };
  for (const secret of secrets) {
    try {
      verifyAt(new Webhook(secret), body, headers, at);
      return { ok: true, secret };
    } catch {
      // The next secret may be the one.
    }
  }
  return { ok: false, reason: `matches none of the ${secrets.length} known secret(s)` };
}

/** Standard Webhooks' tolerance: a receiver refuses a timestamp more than 5 minutes from its clock. */
const TOLERANCE_S = 5 * 60;

/**
 * What `Webhook.verify` checks, against the arrival time rather than the clock: the timestamp within the tolerance,
 * and one of the request's v1 signatures the one the library makes with this secret.
 */
function verifyAt(hook: Webhook, body: string, headers: Record<string, string>, at: Date): void {
  const sent = Number(headers['webhook-timestamp']);
  if (!Number.isInteger(sent) || Math.abs(at.getTime() / 1000 - sent) > TOLERANCE_S) throw new Error('timestamp out of tolerance');
  const expected = hook.sign(headers['webhook-id'] ?? '', new Date(sent * 1000), body);
  if (!(headers['webhook-signature'] ?? '').split(' ').includes(expected)) throw new Error('no matching signature');
}

const REFRESH = `new EventSource('/events').onmessage=()=>location.reload()`;
const CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${createHash('sha256').update(REFRESH).digest('base64')}'; connect-src 'self'; form-action 'self'`;

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

const typeOf = (body: string) => {
  try {
    const type = (JSON.parse(body) as { type?: unknown }).type;
    return typeof type === 'string' ? type : '';
  } catch {
    return '';
  }
};

export function capturePage(requests: CapturedRequest[], url: string, secrets: string[]): string {
  const rows = requests.map((r) => {
    const badge = r.verdict.ok
      ? `<span class="badge good">signature verified (secret ${escape(hint(r.verdict.secret))})</span>`
      : `<span class="badge bad">not verified: ${escape(r.verdict.reason)}</span>`;
    const signed = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map(
      (h) => `<dt>${h}</dt><dd>${escape(r.headers[h] ?? '(none)')}</dd>`,
    );
    return `<article class="card" id="request-${r.seq}"><h2>${escape(typeOf(r.body) || `${r.method} ${r.path}`)} ${badge}</h2>
<dl class="facts"><dt>Received</dt><dd>${escape(r.at.toISOString())}</dd><dt>Request</dt><dd>${escape(`${r.method} ${r.path}`)}</dd>${signed.join('')}</dl>
<details><summary>Body</summary><pre>${escape(pretty(r.body))}</pre></details></article>`;
  });
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Postwire webhook capture</title><style>${pageCss()}</style>${toolBar('Webhook capture')}
<main><h1>Captured webhooks</h1>
<p class="muted">Point a webhook endpoint at <code>${escape(url)}</code> (any path): each request lands here, answered 200, with its signature checked as your receiver would check it. The list follows new requests by itself; nothing leaves this machine.</p>
<form method="post" action="/secrets" class="search"><label for="secret" class="sr-only">Signing secret</label><input id="secret" name="secret" placeholder="whsec_… of an endpoint" size="40" required><button>Verify with this secret</button></form>
<p class="note">${secrets.length} signing secret(s) known: ${secrets.map((s) => escape(hint(s))).join(', ') || 'none'}. A secret added here also checks again the requests none verified.</p>
<div id="list">${rows.join('') || '<p class="muted">Nothing received yet: send a test message from an endpoint’s page in the dashboard.</p>'}</div></main>
<script>${REFRESH}</script>`;
}

export async function startWebhookCapture(port: number, initialSecrets: string[] = []): Promise<WebhookCapture> {
  const secrets = [...initialSecrets];
  const captured: CapturedRequest[] = [];
  const listeners = new Set<http.ServerResponse>();
  let seq = 0;
  let url = '';
  const addSecret = (secret: string) => {
    if (secrets.includes(secret)) return;
    secrets.push(secret);
    for (const request of captured) {
      if (!request.verdict.ok && request.headers['webhook-signature'])
        request.verdict = verdictOf(request.body, request.headers, [secret], request.at);
    }
    for (const listener of listeners) listener.write(`data: ${seq}\n\n`);
  };
  const read = (req: http.IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });
  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://capture').pathname;
    if (req.method === 'GET' && path === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' }).write(': connected\n\n');
      listeners.add(res);
      return void req.on('close', () => listeners.delete(res));
    }
    if (req.method === 'GET' && path === '/') {
      return void res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP })
        .end(capturePage([...captured].reverse(), url, secrets));
    }
    if (req.method === 'POST' && path === '/secrets') {
      const secret = new URLSearchParams(await read(req)).get('secret')?.trim();
      if (secret) addSecret(secret);
      return void res.writeHead(303, { location: '/' }).end();
    }
    if (req.method === 'GET') return void res.writeHead(404).end('not found');
    const body = await read(req);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    captured.push({
      seq: seq++,
      at: new Date(),
      method: req.method ?? 'POST',
      path,
      headers,
      body,
      verdict: verdictOf(body, headers, secrets),
    });
    if (captured.length > KEEP) captured.shift();
    for (const listener of listeners) listener.write(`data: ${seq}\n\n`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  };
  const server = http.createServer((req, res) => {
    serve(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${bound}/hooks`;
  return {
    port: bound,
    url,
    addSecret,
    requests: () => [...captured],
    stop: async () => {
      // As the mail capture's: an open page's event stream reconnects, so every connection is dropped.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
