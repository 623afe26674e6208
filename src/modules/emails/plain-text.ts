import { compile } from 'html-to-text';

/**
 * The plain-text alternative of an email whose producer gave none (docs/sending.md "Plain text"): the rendered
 * HTML as a reader would see it, links kept as `label (url)` (the label alone when it is the URL), images
 * left out, and layout tables read cell by cell rather than drawn as columns. Mailbox providers score
 * HTML-only mail worse. Compiled once: the options are parsed into selectors a single time.
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

export const plainTextOf = (html: string): string => toText(html);
