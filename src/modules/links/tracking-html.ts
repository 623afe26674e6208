/**
 * Rewrites the HTML of an email for tracking: each `<a href>` to a web page goes through `rewrite`, and a
 * pixel is added at the end of the body. Working on the markup as text keeps every byte that is not a link
 * as the sender wrote it, which matters for email HTML that parsers "repair".
 */

// An anchor's href in any of the three attribute notations: "…", '…' or bare.
const ANCHOR_HREF = /(<a\b[^>]*?\shref\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi;

const NAMED: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };

/** The character references an attribute value may hold, resolved: `&amp;` in an href is a `&` of the URL. */
function decodeAttribute(value: string): string {
  return value.replace(/&(?:#x([0-9a-f]+)|#(\d+)|(amp|quot|apos|lt|gt));?/gi, (ref, hex?: string, dec?: string, name?: string) => {
    if (name) return NAMED[name.toLowerCase()]!;
    const code = hex ? parseInt(hex, 16) : Number(dec);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ref;
  });
}

const encodeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** Replaces each link's target by `rewrite(target)`; a null result leaves the link as it was. */
export function rewriteLinks(html: string, rewrite: (target: string) => string | null): string {
  return html.replace(ANCHOR_HREF, (match, start: string, double?: string, single?: string, bare?: string) => {
    const target = decodeAttribute(double ?? single ?? bare ?? '').trim();
    const replacement = rewrite(target);
    return replacement === null ? match : `${start}"${encodeAttribute(replacement)}"`;
  });
}

/** Appends a 1x1 image loading `src` at the end of the body (or of the document, without a body element). */
export function appendPixel(html: string, src: string): string {
  const pixel = `<img src="${encodeAttribute(src)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0">`;
  const end = [...html.matchAll(/<\/body\b/gi)].at(-1)?.index;
  return end === undefined ? html + pixel : html.slice(0, end) + pixel + html.slice(end);
}
