import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { DnsResolver } from '../../../dns/resolver';
import type { WebhookMethod } from '../../../../workflows/automation/definition';
import { resolveTarget, type AddressPolicy, type ResolvedTarget, WebhookRefused } from './address-policy';

export interface WebhookRequest {
  url: string;
  method: WebhookMethod;
  headers: Record<string, string>;
  /** Sent as is; null sends no body. */
  body: string | null;
}

export interface WebhookResponse {
  status: number;
  /** Parsed when JSON, else text; cut to MAX_KEPT characters. */
  body: unknown;
  /** The URL that answered, after redirects. */
  url: string;
}

export interface SendOptions {
  dns: DnsResolver;
  policy: AddressPolicy;
  /** The whole exchange, redirects included. */
  timeoutMs: number;
  maxRedirects?: number;
  /** Keep-alive agents for callers that send many requests to one receiver; by default each request has its own connection. */
  agents?: { http: http.Agent; https: https.Agent };
}

/** The receiver refused the request (4xx): sending it again would not help. */
export class WebhookRejected extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`The webhook answered ${status}`);
  }
}

/** The receiver failed (5xx): worth another try. */
export class WebhookServerError extends Error {
  constructor(readonly status: number) {
    super(`The webhook answered ${status}`);
  }
}

/** No answer in time: worth another try. */
export class WebhookTimeout extends Error {
  constructor(ms: number) {
    super(`The webhook did not answer within ${ms} ms`);
  }
}

const MAX_READ = 64 * 1024;
const MAX_KEPT = 2_000;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Connects to the address that was checked, whatever the name resolves to by the time the socket opens. */
const pinned =
  (target: ResolvedTarget): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };

async function readBody(res: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_READ) {
      res.destroy();
      break;
    }
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (/\bjson\b/i.test(res.headers['content-type'] ?? '') && size < MAX_READ) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // Not JSON after all: kept as text.
    }
  }
  return text.length > MAX_KEPT ? `${text.slice(0, MAX_KEPT)}…` : text;
}

function exchange(
  url: URL,
  request: WebhookRequest,
  target: ResolvedTarget,
  signal: AbortSignal,
  options: SendOptions,
): Promise<IncomingMessage> {
  const transport = url.protocol === 'https:' ? https : http;
  const agent = (url.protocol === 'https:' ? options.agents?.https : options.agents?.http) ?? false;
  const headers = { ...request.headers, ...(request.body === null ? {} : { 'content-length': String(Buffer.byteLength(request.body)) }) };
  return new Promise((resolve, reject) => {
    const req = transport.request(url, { method: request.method, headers, lookup: pinned(target), signal, agent }, resolve);
    req.on('error', reject);
    req.end(request.body ?? undefined);
  });
}

/**
 * One WEBHOOK request: every hop (redirects are followed by hand, up to `maxRedirects`) is checked by the
 * address policy before it connects. 2xx resolves; 5xx throws WebhookServerError, other answers (4xx) WebhookRejected, a
 * refused address WebhookRefused; network failures and the timeout throw as they are.
 */
export async function sendWebhook(request: WebhookRequest, options: SendOptions): Promise<WebhookResponse> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    return await exchangeFollowingRedirects(request, options, signal);
  } catch (err) {
    if (signal.aborted) throw new WebhookTimeout(options.timeoutMs);
    throw err;
  }
}

async function exchangeFollowingRedirects(request: WebhookRequest, options: SendOptions, signal: AbortSignal): Promise<WebhookResponse> {
  let current = request;
  for (let hop = 0; ; hop++) {
    const url = new URL(current.url);
    const target = await resolveTarget(options.dns, url.hostname, options.policy);
    const res = await exchange(url, current, target, signal, options);
    const location = res.headers.location;
    if (REDIRECTS.has(res.statusCode ?? 0) && location) {
      res.destroy();
      if (hop >= (options.maxRedirects ?? 5)) throw new WebhookRefused(`More than ${options.maxRedirects ?? 5} redirects`);
      const next = new URL(location, url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new WebhookRefused(`Redirect to ${next.protocol} refused`);
      // 307 and 308 repeat the request; the others continue with a GET, as browsers do.
      const keep = res.statusCode === 307 || res.statusCode === 308;
      current = keep
        ? { ...current, url: next.href }
        : { url: next.href, method: 'GET', headers: withoutBodyHeaders(current.headers), body: null };
      continue;
    }
    const status = res.statusCode ?? 0;
    const body = await readBody(res);
    if (status >= 200 && status < 300) return { status, body, url: url.href };
    if (status >= 500) throw new WebhookServerError(status);
    throw new WebhookRejected(status, body);
  }
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'));
}
