import { compile } from 'html-to-text';
import { parseTemplate } from '../templates/engine';
import { TemplateError } from '../templates/render';

/**
 * The plain-text alternative of an email whose producer gave none (docs/sending.md "Plain text"): the HTML as
 * a reader would see it, links kept as `label (url)` (the label alone when it is the URL), images left out,
 * and layout tables read cell by cell rather than drawn as columns. Mailbox providers score HTML-only mail
 * worse. Compiled once: the options are parsed into selectors a single time.
 */
const toText = compile({
  wordwrap: 78,
  selectors: [
    { selector: 'a', options: { linkBrackets: ['(', ')'], hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'h4', options: { uppercase: false } },
    { selector: 'h5', options: { uppercase: false } },
    { selector: 'h6', options: { uppercase: false } },
    { selector: 'table', format: 'block' },
    { selector: 'tr', format: 'block' },
    { selector: 'td', format: 'block' },
    { selector: 'th', format: 'block' },
  ],
});

/** The text of rendered HTML. */
export const plainTextOf = (html: string): string => toText(html);

/** `| raw` puts HTML into the body as it is, which a text made from the template would show as markup. */
const RAW = /\|\s*raw\b/;
/** Text templates kept, by body source, at most this many characters of source in all (a campaign sends one body many times). */
const CACHE_CHARACTERS = 20_000_000;
const textTemplates = new Map<string, string | null>();
let cachedCharacters = 0;

function textTemplate(body: string): string | null {
  if (RAW.test(body)) return null;
  const text = toText(body);
  try {
    parseTemplate(text, 'text');
    return text;
  } catch (err) {
    if (err instanceof TemplateError) return null;
    throw err;
  }
}

/**
 * The text template made once from an HTML template (Liquid kept, since html-to-text leaves it as text), for
 * rendering per recipient like the subject: converting each recipient's rendered HTML costs about 0.14 ms of
 * CPU for 3 kB, a third of a campaign email's whole budget, and the text is the same. Null when the text has
 * to be made from each rendered HTML: a body that pipes values through `raw`, or one whose conversion no
 * longer parses as Liquid (a tag split by the wrapping).
 */
export function textTemplateOf(body: string): string | null {
  const cached = textTemplates.get(body);
  if (cached !== undefined) return cached;
  const made = textTemplate(body);
  textTemplates.set(body, made);
  cachedCharacters += body.length;
  for (const [oldest] of textTemplates) {
    if (cachedCharacters <= CACHE_CHARACTERS) break;
    textTemplates.delete(oldest);
    cachedCharacters -= oldest.length;
  }
  return made;
}
