import type { Readable } from 'node:stream';

/**
 * A refusal for smtp-server's callbacks: `code` is the reply code, `text` starts with the enhanced status code
 * (RFC 3463), e.g. `smtpRefusal(550, '5.1.1 No such mailbox here')`. smtp-server writes them as given.
 */
export const smtpRefusal = (code: number, text: string): Error & { responseCode: number } =>
  Object.assign(new Error(text), { responseCode: code });

/** The bytes of a DATA stream; `exceeded` when smtp-server counted more than its `size` (the rest was discarded). */
export async function readData(stream: Readable & { sizeExceeded?: boolean }): Promise<{ raw: Buffer; exceeded: boolean }> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return { raw: Buffer.concat(chunks), exceeded: stream.sizeExceeded === true };
}

/** True for a client on this machine (127.0.0.0/8, ::1, and IPv4 mapped into IPv6). */
export const isLoopback = (address: string): boolean => /^(::ffff:)?127\./.test(address) || address === '::1';
