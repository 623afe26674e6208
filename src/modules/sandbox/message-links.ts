/**
 * The tracking links a received message carries, read the way a mail client would see them: its text parts
 * decoded (quoted-printable or base64) before the links are looked for.
 */

const decodeQuotedPrintable = (text: string) =>
  Buffer.from(
    text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

const unfold = (head: string) => head.replace(/\r?\n[ \t]+/g, ' ');

/** The decoded bodies of an entity's text/html and text/plain parts, multipart entities walked through. */
function textParts(entity: string): string[] {
  const split = /\r?\n\r?\n/.exec(entity);
  const head = unfold(split ? entity.slice(0, split.index) : entity);
  const body = split ? entity.slice(split.index + split[0].length) : '';
  const type = /^Content-Type:\s*([^;\r\n]+)(.*)$/im.exec(head);
  const mediaType = (type?.[1] ?? 'text/plain').trim().toLowerCase();
  if (mediaType.startsWith('multipart/')) {
    const boundary = /boundary="?([^";\r\n]+)"?/i.exec(type?.[2] ?? '')?.[1];
    if (!boundary) return [];
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .flatMap((part) => textParts(part.replace(/^\r?\n/, '')));
  }
  if (mediaType !== 'text/html' && mediaType !== 'text/plain') return [];
  const encoding = /^Content-Transfer-Encoding:\s*(\S+)/im.exec(head)?.[1]?.toLowerCase();
  if (encoding === 'base64') return [Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')];
  if (encoding === 'quoted-printable') return [decodeQuotedPrintable(body)];
  return [body];
}

const unescapeHtml = (url: string) => url.replace(/&amp;/g, '&');

export interface TrackingLinks {
  /** The open pixel: its email and signature. */
  open: { emailId: string; signature: string } | null;
  /** The first tracked link: its email, target and signature. */
  click: { emailId: string; target: string; signature: string } | null;
}

export function trackingLinksOf(raw: string, publicUrl: string): TrackingLinks {
  const base = new URL(publicUrl).origin;
  const urls = textParts(raw)
    .flatMap((text) => [...text.matchAll(/https?:\/\/[^\s"'<>]+/g)].map((m) => unescapeHtml(m[0])))
    .map((u) => new URL(u))
    .filter((u) => u.origin === base);
  const pixel = urls.find((u) => /^\/t\/o\/[0-9a-f-]{36}$/i.test(u.pathname));
  const link = urls.find((u) => /^\/t\/c\/[0-9a-f-]{36}$/i.test(u.pathname));
  return {
    open: pixel ? { emailId: pixel.pathname.slice(5), signature: pixel.searchParams.get('s') ?? '' } : null,
    click: link
      ? { emailId: link.pathname.slice(5), target: link.searchParams.get('u') ?? '', signature: link.searchParams.get('s') ?? '' }
      : null,
  };
}
