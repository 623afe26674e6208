/** The image formats an upload may be, by the extension its key ends with. */
export const IMAGE_TYPES = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' } as const;
export type ImageExtension = keyof typeof IMAGE_TYPES;

const startsWith = (bytes: Buffer, signature: number[] | string, at = 0) =>
  Buffer.from(typeof signature === 'string' ? Buffer.from(signature, 'latin1') : signature).equals(
    bytes.subarray(at, at + signature.length),
  );

/**
 * The format of an image by its leading bytes (the name and the declared type of an upload are the
 * client's word and are not trusted). Anything else, SVG included, is null: an SVG is a document that can
 * carry scripts, and served from the API's own origin it would run with the API's cookies.
 */
export function sniffImage(bytes: Buffer): ImageExtension | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(bytes, 'GIF87a') || startsWith(bytes, 'GIF89a')) return 'gif';
  if (startsWith(bytes, 'RIFF') && startsWith(bytes, 'WEBP', 8)) return 'webp';
  return null;
}

/** Whether the bytes look like SVG (or other XML), to say why an upload was refused. */
export const looksLikeSvg = (bytes: Buffer) =>
  /^\s*(<\?xml|<!--|<!doctype svg|<svg)/i.test(
    bytes
      .subarray(0, 512)
      .toString('utf8')
      .replace(/^\uFEFF/, ''),
  );
