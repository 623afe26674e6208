import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { callbackify } from 'node:util';
import { Resolver } from 'node:dns/promises';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { SMTPServer } from 'smtp-server';
import { dataDir } from './paths';

const mailDir = path.join(dataDir, 'mail');

function headerOf(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const match = new RegExp(`^${name}:(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(head);
  return match ? match[1]!.replace(/\r?\n[ \t]+/g, ' ').trim() : '';
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function listPage(): string {
  const files = fs.existsSync(mailDir)
    ? fs
        .readdirSync(mailDir)
        .filter((f) => f.endsWith('.eml'))
        .sort()
        .reverse()
    : [];
  const rows = files.slice(0, 500).map((file) => {
    const raw = fs.readFileSync(path.join(mailDir, file), 'utf8');
    const dkim = /dkim=(\w+)/.exec(headerOf(raw, 'Authentication-Results'))?.[1] ?? '';
    const cells =
      ['Date', 'From', 'To', 'Subject'].map((h) => `<td>${escape(headerOf(raw, h))}</td>`).join('') + `<td>${escape(dkim)}</td>`;
    return `<tr>${cells}<td><a href="/messages/${encodeURIComponent(file)}">source</a></td></tr>`;
  });
  return `<!doctype html><meta charset="utf-8"><title>Postwire mail capture</title>
<style>body{font:14px system-ui;margin:2em}td,th{padding:4px 8px;border-bottom:1px solid #ddd;text-align:left}</style>
<h1>Captured mail (${files.length})</h1><p>Everything Postwire sends in development lands here; nothing leaves this machine.</p>
<table><tr><th>Date</th><th>From</th><th>To</th><th>Subject</th><th>DKIM</th><th></th></tr>${rows.join('')}</table>`;
}

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

/** A local SMTP server that keeps every message under .data/mail, and a web page to read them. */
export async function startMailCapture(smtpPort: number, webPort: number, dnsServers: string[] = []): Promise<{ stop(): Promise<void> }> {
  fs.mkdirSync(mailDir, { recursive: true });
  let seq = 0;
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
          await fs.promises.writeFile(path.join(mailDir, name), Buffer.concat([Buffer.from(verdict), raw]));
        };
        callbackify(keep)((err) => callback(err ?? null));
      });
    },
  });
  const web = http.createServer((req, res) => {
    const match = /^\/messages\/([^/]+\.eml)$/.exec(req.url ?? '');
    if (match) {
      const file = path.join(mailDir, path.basename(decodeURIComponent(match[1]!)));
      if (!fs.existsSync(file)) return void res.writeHead(404).end('not found');
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return void fs.createReadStream(file).pipe(res);
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(listPage());
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
    stop: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => web.close(() => resolve()));
    },
  };
}
