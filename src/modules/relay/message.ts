import { bodyStart } from '../emails/dkim-signature';

/**
 * The message without its Bcc fields (their folded lines included), the rest byte for byte: a relayed
 * message is sent as given, but Bcc recipients must not be named to the others (RFC 5322 3.6.3).
 */
export function withoutBcc(raw: Buffer): Buffer {
  const end = bodyStart(raw);
  const lines = raw
    .subarray(0, end)
    .toString('latin1')
    .split(/(?<=\n)/);
  let dropping = false;
  const kept = lines.filter((line) => {
    if (/^[ \t]/.test(line)) return !dropping;
    dropping = /^bcc\s*:/i.test(line);
    return !dropping;
  });
  if (kept.length === lines.length) return raw;
  return Buffer.concat([Buffer.from(kept.join(''), 'latin1'), raw.subarray(end)]);
}
