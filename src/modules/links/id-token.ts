import { linkSigner, type LinkPurpose, type LinkSecrets } from '../../crypto/link-signer';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `<id>.<signature>`: a link that names one record (a contact, a confirmation) and cannot be edited into another's. */
export const idToken = (config: LinkSecrets, purpose: LinkPurpose, id: string): string => `${id}.${linkSigner(config).sign(purpose, id)}`;

/** The id a token of `purpose` names, or null when it is malformed or its signature does not match. */
export function idOfToken(config: LinkSecrets, purpose: LinkPurpose, token: string): string | null {
  const [id = '', signature = '', ...rest] = token.split('.');
  if (rest.length > 0 || !UUID.test(id)) return null;
  return linkSigner(config).verify(purpose, signature, id.toLowerCase()) ? id.toLowerCase() : null;
}
