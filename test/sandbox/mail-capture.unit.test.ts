import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { startMailCapture, type MailCapture } from '../../scripts/lib/mail-capture';
import { escape } from '../../scripts/lib/mail-capture-pages';
import { openEventStream } from '../helpers/event-stream';

/** The mail capture as a developer's inbox: mail sent to its SMTP port, read over its web port. */
describe('the mail capture inbox', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'postwire-capture-'));
  let capture: MailCapture;
  const page = async (url: string) => {
    const res = await fetch(`http://127.0.0.1:${capture.webPort}${url}`);
    return { status: res.status, csp: res.headers.get('content-security-policy') ?? '', body: await res.text() };
  };
  const send = (message: nodemailer.SendMailOptions) =>
    nodemailer.createTransport({ host: '127.0.0.1', port: capture.smtpPort, secure: false, ignoreTLS: true }).sendMail(message);
  const html =
    '<p>Hello "you" & co</p><a href="https://example.test/a?x=1&amp;y=2">A</a><a href=\'https://example.test/b\'>B</a>' +
    '<img src="http://api.test/t/o/0b7e4a3c-1111-4222-8333-944445555666?s=sig" width="1" height="1"><script>alert(1)</script>';

  beforeAll(async () => {
    capture = await startMailCapture(0, 0, [], dir);
    await send({
      from: 'Shop <hello@shop.test>',
      to: 'ann@reader.test',
      subject: 'Your order',
      text: 'Plain words',
      html,
      headers: { 'List-Unsubscribe': '<https://api.test/u/abc>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    await send({ from: 'evil@bad.test', to: 'bob@reader.test', subject: '<script>alert("x")</script>', text: 'x' });
  });
  afterAll(async () => {
    await capture?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists messages newest first, and a search matches from, to or subject', async () => {
    const all = await page('/');
    expect(all.status).toBe(200);
    expect(all.body).toContain('2 message(s)');
    expect(all.body.indexOf('bob@reader.test')).toBeLessThan(all.body.indexOf('ann@reader.test'));
    for (const q of ['ORDER', 'shop.test', 'ann@reader']) {
      const found = await page(`/?q=${encodeURIComponent(q)}`);
      expect(found.body).toContain('1 message(s)');
      expect(found.body).toContain('Your order');
      expect(found.body).not.toContain('bob@reader.test');
    }
    const none = await page('/?q=nothing-like-this');
    expect(none.body).toContain('0 message(s)');
    expect(none.body).not.toContain('Your order');
  });

  it('escapes what a message says: a subject with <script> cannot run in the list', async () => {
    const all = await page('/');
    expect(all.body).not.toContain('<script>alert');
    expect(all.body).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;');
    expect(all.body.match(/<script>/g)).toHaveLength(1);
    expect(all.csp).toMatch(/default-src 'none'.*script-src 'sha256-/);
  });

  it('shows one message rendered in a sandbox, as text and raw, with headers, DKIM, List-Unsubscribe and its links', async () => {
    const file = /href="\/messages\/([^"]+)">Your order</.exec((await page('/')).body)![1]!;
    const one = await page(`/messages/${file}`);
    expect(one.status).toBe(200);
    expect(one.csp).toContain("default-src 'none'");
    expect(one.csp).not.toContain('script-src');
    expect(one.body).toContain(`<iframe id="rendered" title="The message as HTML, its scripts blocked" sandbox srcdoc="${escape(html)}`);
    expect(one.body).toMatch(/srcdoc="[^"]*"><\/iframe>/);
    expect(one.body).not.toContain('<script>alert(1)');
    expect(one.body).toContain('<pre id="text">Plain words');
    expect(one.body).toMatch(/<pre id="headers">[^]*Subject: Your order[^]*<\/pre>/);
    expect(one.body).toMatch(/<pre id="raw">Authentication-Results: postwire-mail-capture; dkim=none[^]*Content-Type: text\/html/);
    expect(one.body).toContain('<dt>DKIM</dt><dd>dkim=none</dd>');
    expect(one.body).toContain('<dt>List-Unsubscribe</dt><dd>&#60;https://api.test/u/abc&#62;</dd>');
    expect(one.body).toContain('<dt>List-Unsubscribe-Post</dt><dd>List-Unsubscribe=One-Click</dd>');
    expect(one.body).toContain('<ul id="links"><li>https://example.test/a?x=1&#38;y=2</li><li>https://example.test/b</li></ul>');
    expect(one.body).toContain('Open pixel: http://api.test/t/o/0b7e4a3c-1111-4222-8333-944445555666?s=sig');
    expect((await page('/messages/none.eml')).status).toBe(404);
    expect((await page('/messages/%2e%2e%2fsecret.eml')).status).toBe(404);
  });

  it('announces a new message on /events', async () => {
    const event = await new Promise<string>((resolve, reject) => {
      const req = http.get(`http://127.0.0.1:${capture.webPort}/events`, (res) => {
        expect(res.headers['content-type']).toBe('text/event-stream');
        let seen = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          seen += chunk;
          if (seen.includes(': connected')) void send({ from: 'a@b.test', to: 'c@d.test', subject: 'Fresh', text: 'new' }).catch(reject);
          const data = /data: (\S+\.eml)\n\n/.exec(seen);
          if (data) {
            req.destroy();
            resolve(data[1]!);
          }
        });
      });
      req.on('error', reject);
    });
    expect((await page(`/messages/${event}`)).body).toContain('<h1>Fresh</h1>');
  });
});

it('stops while a page follows its event stream, which reconnects', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'postwire-capture-stop-'));
  const capture = await startMailCapture(0, 0, [], dir);
  const stream = await openEventStream(capture.webPort);
  const stopped = capture.stop();
  // The page's EventSource comes back at once (Ctrl-C on npm start with the capture open): the stop must not wait for it.
  await expect(openEventStream(capture.webPort)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  await expect(stopped).resolves.toBeUndefined();
  stream.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});
