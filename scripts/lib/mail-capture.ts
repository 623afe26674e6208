import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { callbackify } from 'node:util';
import { Resolver } from 'node:dns/promises';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { SMTPServer } from 'smtp-server';
import { dataDir } from './paths';
import { listPage, messagePage, type CapturedMessage, type Page } from './mail-capture-pages';

const mailDir = path.join(dataDir, 'mail');

/** The start of a message, where its headers are: the list needs nothing else, and attachments can be large. */
async function headOf(file: string): Promise<Buffer> {
  const handle = await fs.promises.open(file);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The heads of the newest messages first (file names start with their arrival time), at most 500. */
async function newest(dir: string): Promise<CapturedMessage[]> {
  const files = (await fs.promises.readdir(dir))
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .reverse()
    .slice(0, 500);
  return Promise.all(files.map(async (file) => ({ file, raw: await headOf(path.join(dir, file)) })));
}

const send = (res: http.ServerResponse, page: Page) =>
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': page.csp }).end(page.html);

/**
 * The DKIM verdict on a received message, checked as a receiving server would (against `dnsServers`, the
 * development DNS under npm start), as an Authentication-Results header (RFC 8601) to put on top of it.
 */
export async function authenticationResults(raw: Buffer, dnsServers: string[]): Promise<string> {
  const resolver = new Resolver({ timeout: 2_000, tries: 1 });
  if (dnsServers.length > 0) resolver.setServers(dnsServers);
  try {
    const { results } = await dkimVerify(raw, { resolver: (name: string) => resolver.resolveTxt(name) });
    const verdicts = results.map((r) => `dkim=${r.status.result}${r.signingDomain ? ` header.d=${r.signingDomain}` : ''}`);
    return `Authentication-Results: postwire-mail-capture; ${verdicts.join('; ') || 'dkim=none'}\r\n`;
  } catch {
    return 'Authentication-Results: postwire-mail-capture; dkim=temperror\r\n';
  }
}

export interface MailCapture {
  smtpPort: number;
  webPort: number;
  /** The first message received since the capture started that `match` accepts (`npm start` reads the account's verification mail). */
  waitFor(match: (raw: Buffer) => boolean, timeoutMs?: number): Promise<Buffer>;
  stop(): Promise<void>;
}

/**
 * A local SMTP server that keeps every message under `dir` (.data/mail), and a web inbox to read them: the list
 * with a search (`?q=`), one message's page, and `GET /events`, which announces each new message (Server-Sent
 * Events) so the list refreshes itself.
 */
export async function startMailCapture(smtpPort: number, webPort: number, dnsServers: string[] = [], dir = mailDir): Promise<MailCapture> {
  fs.mkdirSync(dir, { recursive: true });
  let seq = 0;
  const listeners = new Set<http.ServerResponse>();
  /** The messages of this run, for `waitFor`: a start's few system emails, capped. */
  const received: Buffer[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    size: 60 * 1024 * 1024,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(seq++).padStart(6, '0')}.eml`;
        const raw = Buffer.concat(chunks);
        const keep = async () => {
          const verdict = await authenticationResults(raw, dnsServers);
          await fs.promises.writeFile(path.join(dir, name), Buffer.concat([Buffer.from(verdict), raw]));
          if (received.push(raw) > 100) received.shift();
          for (const listener of listeners) listener.write(`data: ${name}\n\n`);
        };
        callbackify(keep)((err) => callback(err ?? null));
      });
    },
  });
  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://capture');
    if (url.pathname === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' }).write(': connected\n\n');
      listeners.add(res);
      return void req.on('close', () => listeners.delete(res));
    }
    const match = /^\/messages\/([\w.-]+\.eml)$/.exec(url.pathname);
    if (match) {
      const file = path.basename(match[1]!);
      const raw = await fs.promises.readFile(path.join(dir, file)).catch(() => null);
      if (!raw) return void res.writeHead(404).end('not found');
      return send(res, await messagePage({ file, raw }));
    }
    if (url.pathname !== '/') return void res.writeHead(404).end('not found');
    send(res, await listPage(await newest(dir), url.searchParams.get('q') ?? ''));
  };
  const web = http.createServer((req, res) => {
    serve(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end('the capture could not read this message');
    });
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(smtpPort, '127.0.0.1', () => {
      // From here on, a worker that stops mid-conversation resets its connection; that must not stop the capture.
      smtp.off('error', reject).on('error', () => undefined);
      resolve();
    });
  });
  await new Promise<void>((resolve) => web.listen(webPort, '127.0.0.1', resolve));
  return {
    smtpPort: (smtp.server.address() as AddressInfo).port,
    webPort: (web.address() as AddressInfo).port,
    waitFor: async (match, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no message the capture received within ${timeoutMs / 1000} s was the one awaited`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop: async () => {
      // The page's event stream reconnects by itself: the web server stops listening first and then drops every
      // connection, so an open browser tab (Ctrl-C with the capture on screen) cannot hold the stop up.
      const closed = new Promise<void>((resolve) => web.close(() => resolve()));
      web.closeAllConnections();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await closed;
    },
  };
}
