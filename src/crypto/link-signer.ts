import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config';

/** What a signature vouches for; each purpose signs with a key of its own. */
export type LinkPurpose = 'tracking' | 'preferences' | 'confirmation' | 'signup';

/** 128 bits: far beyond guessing, and short enough for links in email. */
const SIGNATURE_BYTES = 16;

/**
 * Signatures of the links the service puts into emails (tracking, subscription pages, double opt-in
 * confirmations) and of the start tokens of signup forms, so that a link cannot be made for another email,
 * target, contact or confirmation. Keys are derived from LINK_SECRET (or JWT_SECRET)
 * with HKDF, one per purpose, so a signature made for one purpose is worthless for another.
 */
export class LinkSigner {
  private readonly keys: Record<LinkPurpose, Buffer>;

  constructor(secret: string) {
    const derive = (purpose: LinkPurpose) => Buffer.from(hkdfSync('sha256', secret, 'postwire links', purpose, 32));
    this.keys = {
      tracking: derive('tracking'),
      preferences: derive('preferences'),
      confirmation: derive('confirmation'),
      signup: derive('signup'),
    };
  }

  /** base64url HMAC-SHA256 of the parts, truncated to 128 bits. Parts are joined unambiguously with NUL. */
  sign(purpose: LinkPurpose, ...parts: string[]): string {
    return this.mac(purpose, parts).toString('base64url');
  }

  verify(purpose: LinkPurpose, signature: string, ...parts: string[]): boolean {
    const given = Buffer.from(signature, 'base64url');
    return given.length === SIGNATURE_BYTES && timingSafeEqual(given, this.mac(purpose, parts));
  }

  private mac(purpose: LinkPurpose, parts: string[]): Buffer {
    return createHmac('sha256', this.keys[purpose]).update(parts.join('\0')).digest().subarray(0, SIGNATURE_BYTES);
  }
}

export type LinkSecrets = Pick<Config, 'JWT_SECRET' | 'LINK_SECRET'>;

const signers = new Map<string, LinkSigner>();

/** The signer of a deployment's settings; derived once per secret, since campaigns sign a link per recipient. */
export function linkSigner(config: LinkSecrets): LinkSigner {
  const secret = config.LINK_SECRET ?? config.JWT_SECRET;
  let signer = signers.get(secret);
  if (!signer) {
    signer = new LinkSigner(secret);
    signers.set(secret, signer);
  }
  return signer;
}
