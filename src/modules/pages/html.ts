import { escapeHtml } from '../../escape-html';
import type { AppContext } from '../../http/context';
import { brandLine, pageCss } from '../../design/page';

/**
 * The public pages of the service (subscription pages, the preference center, signup forms, confirmations),
 * as plain HTML that works in any browser without scripts: each form posts back to the service. Everything
 * shown comes from data (addresses, project names, a form's labels) and is escaped.
 */

/** A piece of markup whose text parts were escaped. */
export interface Html {
  readonly html: string;
}

/** Markup from a template literal; interpolated strings are escaped, interpolated Html is kept. */
export function html(strings: TemplateStringsArray, ...values: Array<string | Html>): Html {
  return { html: strings.reduce((out, s, i) => out + s + (i < values.length ? part(values[i]!) : ''), '') };
}

const part = (v: string | Html) => (typeof v === 'string' ? escapeHtml(v) : v.html);

/** Markup taken as it is: for the service's own constants only. */
export const raw = (markup: string): Html => ({ html: markup });

/** Pieces of markup one after the other. */
export const join = (parts: Html[]): Html => raw(parts.map((p) => p.html).join(''));

/**
 * The design tokens and the shared page styles (src/design/page.ts), light or dark as the reader's system is,
 * with what the signup forms and the preference center add: block forms, labelled inputs, choices, errors,
 * and the bots' trap kept off screen.
 */
const STYLE = `${pageCss()}
form.block{display:block;margin:0}.error{color:var(--danger);font-size:var(--text-sm);margin:.25rem 0 0}
label{display:block;margin:.75rem 0 .25rem}label.choice{display:flex;gap:.5rem;align-items:flex-start;font-weight:400}
input[type=email],input[type=text],input[type=number],input[type=date]{width:100%}
input[aria-invalid=true]{border-color:var(--danger)}legend{font-weight:600;padding:0 .25rem}
.choice small{display:block;color:var(--muted)}.actions{margin-top:1rem}
.trap{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}`;

export function page(title: string, body: Html): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${raw(STYLE)}</style>
</head>
<body><main class="narrow">
${raw(brandLine())}
<h1>${title}</h1>
${body}
</main></body>
</html>
`.html;
}

/** A form with one button that posts `fields` to `action`, or back to the page itself without one. */
export function button(action: string | null, label: string, fields: Record<string, string> = {}, secondary = false): Html {
  const inputs = Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  const target = action === null ? html`` : html` action="${action}"`;
  return html`<form method="post"${target}>${join(inputs)}<button type="submit"${raw(secondary ? ' class="secondary"' : '')}>${label}</button></form>`;
}

const HTML_TYPE = 'text/html; charset=utf-8';

/**
 * Answers a page. The pages may hold a token that acts for a contact: no caching, no framing, no referrer.
 * Their script-free policy is the one every HTML page gets (src/http/security-headers.ts).
 */
export function sendPage(ctx: AppContext, status: number, body: string): void {
  ctx.status = status;
  ctx.type = HTML_TYPE;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.body = body;
}

/** The answer to a link that is forged, malformed or of something deleted. */
export const invalidLinkPage = (): string =>
  page('This link does not work', html`<p>The link is incomplete or no longer valid. Please use the link in a recent email.</p>`);
