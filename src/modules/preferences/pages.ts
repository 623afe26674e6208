import { escapeHtml } from '../../escape-html';
import { brandLine, pageCss } from '../../design/page';

/**
 * The subscription pages, as plain HTML that works in any browser without scripts: each form posts back to
 * the service. Everything shown comes from data (addresses, project names) and is escaped.
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
const raw = (markup: string): Html => ({ html: markup });

/** The design tokens and the shared page styles (src/design), light or dark as the reader's system is. */
const STYLE = pageCss();

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
  const inputs = Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`.html);
  const target = action === null ? html`` : html` action="${action}"`;
  return html`<form method="post"${target}>${raw(inputs.join(''))}<button type="submit"${raw(secondary ? ' class="secondary"' : '')}>${label}</button></form>`;
}
