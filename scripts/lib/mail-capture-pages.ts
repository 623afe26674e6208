import { createHash } from 'node:crypto';
import PostalMime, { type Address, type Email } from 'postal-mime';
import { pageCss, toolBar } from '../../src/design/page';

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

/** The design tokens and the shared page styles (src/design/page.ts): the capture looks like the dashboard. */
const STYLE = `<meta name="viewport" content="width=device-width, initial-scale=1"><style>${pageCss()}</style>`;
const TOP = toolBar('Mail capture', [{ href: '/', label: 'All mail' }]);

/** A DKIM verdict as a badge: pass in green, anything else in red. */
const dkimBadge = (verdict: string) =>
  verdict
    ? `<span class="badge ${verdict === 'pass' ? 'good' : 'bad'}">${escape(verdict)}</span>`
    : '<span class="badge neutral">none</span>';

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
    rows.push(`<tr>${cells}<td>${link}</td><td>${dkimBadge(dkim)}</td></tr>`);
  }
  const html = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Postwire mail capture</title>${STYLE}
${TOP}<main><h1>Captured mail</h1><p class="muted">Everything Postwire sends in development lands here, with the receiving side's DKIM check; nothing leaves this machine. The list follows new mail by itself.</p>
<form class="search" method="get" action="/" role="search"><label class="sr-only" for="q">Search</label><input type="search" id="q" name="q" value="${escape(query)}" placeholder="From, to or subject"> <button>Search</button></form>
<div class="table-wrap"><table id="list"><caption>${rows.length} message(s)${needle ? ` matching “${escape(query)}”` : ''}</caption>
<tr><th>Date</th><th>From</th><th>To</th><th>Subject</th><th>DKIM</th></tr>${rows.join('')}</table></div></main>
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
  const details = (id: string, title: string, content: string) =>
    `<details class="card"><summary>${title}</summary><pre id="${id}">${content}</pre></details>`;
  const headers = email.headerLines.map((h) => escape(h.line)).join('\n');
  const body = `<!doctype html><html lang="en"><meta charset="utf-8"><title>${escape(email.subject ?? '(no subject)')}</title>${STYLE}
${TOP}<main><h1>${escape(email.subject ?? '(no subject)')}</h1>
<div class="card"><dl id="summary" class="facts">${dl([
    ['From', addresses(email.from)],
    ['To', addresses(email.to)],
    ['Date', email.date ?? ''],
    ['DKIM', verdictOf(email)],
    ['List-Unsubscribe', header(email, 'list-unsubscribe')],
    ['List-Unsubscribe-Post', header(email, 'list-unsubscribe-post')],
  ])}</dl></div>
<h2>Rendered</h2>${html ? `<iframe id="rendered" title="The message as HTML, its scripts blocked" sandbox srcdoc="${escape(html)}"></iframe>` : '<p>(no HTML part)</p>'}
<h2>Links</h2><ul id="links">${hrefs.map((h) => `<li>${escape(h)}</li>`).join('')}</ul>
<p id="pixel" class="muted">Open pixel: ${escape(pixel ?? '(none)')}</p>
<h2>Text</h2><pre id="text">${escape(email.text ?? '')}</pre>
<h2>Source</h2>${details('headers', 'Headers', headers)}${details('raw', 'Raw message', escape(message.raw.toString('utf8')))}</main>`;
  return { html: body, csp: MESSAGE_CSP };
}
