import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { SecretBox } from '../../crypto/secret-box';
import type { Domain } from './entities';

const generate = promisify(generateKeyPair);

/** A sender domain's DKIM key as stored, the private half as PEM text (the pump parses it once: SigningKey). */
export interface DkimKey {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

/** The sealing context binds a private key to its domain row. */
const sealContext = (domainId: string) => `dkim:${domainId}`;

/** A fresh 2048-bit RSA key: the public half as the base64 DER for `p=`, the private half sealed for `domainId`. */
export async function newDkimKey(box: SecretBox, domainId: string): Promise<{ publicKey: string; sealedPrivateKey: string }> {
  const { publicKey, privateKey } = await generate('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey: publicKey.toString('base64'), sealedPrivateKey: box.seal(privateKey, sealContext(domainId)) };
}

export function dkimKeyOf(box: SecretBox, domain: Pick<Domain, 'id' | 'domain' | 'selector' | 'dkimPrivateKeyEncrypted'>): DkimKey {
  return {
    domainName: domain.domain,
    keySelector: domain.selector,
    privateKey: box.open(domain.dkimPrivateKeyEncrypted, sealContext(domain.id)),
  };
}
