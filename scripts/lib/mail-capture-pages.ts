import { createHash } from 'node:crypto';
import PostalMime, { type Address, type Email } from 'postal-mime';

/**
 * The mail capture's HTML pages: the list of captured messages and one message's page. Everything taken from
 * a message is escaped; its HTML is shown only inside a sandboxed iframe (no scripts, no same origin), and the
 * page's Content-Security-Policy loads nothing remote, so viewing a message never fires its open pixel.
 */

export const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A captured message: its file name under the capture's directory and its source (verdict header on top). */
export interface CapturedMessage {
  file: string;
  raw: Buffer;
}

export interface Page {
  html: string;
  csp: string;
}

const STYLE = `<style>body{font:14px system-ui;margin:2em}td,th{padding:4px 8px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
pre{white-space:pre-wrap;background:#f6f6f6;padding:8px}iframe{width:100%;height:400px;border:1px solid #ddd}</style>`;

// Refreshes the list in place when the capture announces a new message (GET /events).
const REFRESH = `new EventSource('/events').onmessage=()=>fetch(location.href).then(r=>r.text()).then(t=>{
const next=new DOMParser().parseFromString(t,'text/html');document.getElementById('list').replaceWith(next.getElementById('list'))})`;
const REFRESH_HASH = createHash('sha256').update(REFRESH).digest('base64');

const LIST_CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${REFRESH_HASH}'; connect-src 'self'`;
const MESSAGE_CSP = `default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self'`;

const addresses = (list: Address[] | Address | undefined): string =>
  (Array.isArray(list) ? list : list ? [list] : [])
    .flatMap((a) => ('group' in a && a.group ? a.group : [a]))
    .map((a) => (a.name ? `${a.name} <${a.address ?? ''}>` : (a.address ?? '')))
    .join(', ');

const verdictOf = (email: Email) => /dkim=\w+(?: header\.d=\S+)?/.exec(header(email, 'authentication-results'))?.[0] ?? '';
const header = (email: Email, key: string) => email.headers.find((h) => h.key === key)?.value ?? '';

/** The headers only, decoded: enough for the list and much cheaper than the whole message. */
const parseHead = (raw: Buffer) => {
  const end = raw.indexOf('\r\n\r\n');
  return PostalMime.parse(end < 0 ? raw : raw.subarray(0, end + 4));
};

export async function listPage(messages: CapturedMessage[], query: string): Promise<Page> {
  const needle = query.trim().toLowerCase();
  const rows: string[] = [];
  for (const message of messages) {
    const email = await parseHead(message.raw);
    const from = addresses(email.from);
    const to = addresses(email.to);
    const subject = email.subject ?? '';
    if (needle && ![from, to, subject].some((field) => field.toLowerCase().includes(needle))) continue;
    const dkim = /dkim=(\w+)/.exec(verdictOf(email))?.[1] ?? '';
    const cells = [email.date ?? '', from, to].map((v) => `<td>${escape(v)}</td>`).join('');
    const link = `<a href="/messages/${encodeURIComponent(message.file)}">${escape(subject || '(no subject)')}</a>`;
    rows.push(`<tr>${cells}<td>${link}</td><td>${escape(dkim)}</td></tr>`);
  }
  const html = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Postwire mail capture</title>${STYLE}
<h1>Captured mail</h1><p>Everything Postwire sends in development lands here; nothing leaves this machine.</p>
<form method="get" action="/" role="search"><label for="q">Search</label> <input type="search" id="q" name="q" value="${escape(query)}" placeholder="from, to or subject"> <button>Search</button></form>
<table id="list"><caption>${rows.length} message(s)${needle ? ` matching “${escape(query)}”` : ''}</caption>
<tr><th>Date</th><th>From</th><th>To</th><th>Subject</th><th>DKIM</th></tr>${rows.join('')}</table>
<script>${REFRESH}</script>`;
  return { html, csp: LIST_CSP };
}

/** The links a message's HTML carries (hrefs) and its open pixel (an image under /t/o/). */
function linksOf(html: string): { hrefs: string[]; pixel: string | null } {
  const unescapeAttr = (v: string) => v.replace(/&amp;/g, '&');
  const attr = (tag: string, name: string) =>
    [...html.matchAll(new RegExp(`<${tag}\\b[^>]*\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'gi'))].map((m) =>
      unescapeAttr(m[1] ?? m[2] ?? ''),
    );
  return { hrefs: attr('a', 'href'), pixel: attr('img', 'src').find((src) => /\/t\/o\/[^/?]+/.test(src)) ?? null };
}

export async function messagePage(message: CapturedMessage): Promise<Page> {
  const email = await PostalMime.parse(message.raw);
  const html = email.html ?? '';
  const { hrefs, pixel } = linksOf(html);
  const dl = (pairs: Array<[string, string]>) => pairs.map(([k, v]) => `<dt>${escape(k)}</dt><dd>${escape(v || '(none)')}</dd>`).join('');
  const headers = email.headerLines.map((h) => escape(h.line)).join('\n');
  const body = `<!doctype html><html lang="en"><meta charset="utf-8"><title>${escape(email.subject ?? '(no subject)')}</title>${STYLE}
<p><a href="/">← all mail</a></p><h1>${escape(email.subject ?? '(no subject)')}</h1>
<dl id="summary">${dl([
    ['From', addresses(email.from)],
    ['To', addresses(email.to)],
    ['Date', email.date ?? ''],
    ['DKIM', verdictOf(email)],
    ['List-Unsubscribe', header(email, 'list-unsubscribe')],
    ['List-Unsubscribe-Post', header(email, 'list-unsubscribe-post')],
  ])}</dl>
<h2>Rendered</h2>${html ? `<iframe id="rendered" title="The message as HTML, its scripts blocked" sandbox srcdoc="${escape(html)}"></iframe>` : '<p>(no HTML part)</p>'}
<h2>Links</h2><ul id="links">${hrefs.map((h) => `<li>${escape(h)}</li>`).join('')}</ul>
<p id="pixel">Open pixel: ${escape(pixel ?? '(none)')}</p>
<h2>Text</h2><pre id="text">${escape(email.text ?? '')}</pre>
<h2>Headers</h2><pre id="headers">${headers}</pre>
<h2>Raw</h2><pre id="raw">${escape(message.raw.toString('utf8'))}</pre>`;
  return { html: body, csp: MESSAGE_CSP };
}
