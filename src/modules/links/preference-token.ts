import { linkSigner, type LinkSecrets } from '../../crypto/link-signer';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The token of a contact's subscription pages: its id and a signature of it, so that a link names one contact
 * and cannot be edited into another's. It never expires: unsubscribe links in old emails must keep working.
 */
export function preferenceToken(config: LinkSecrets, contactId: string): string {
  return `${contactId}.${linkSigner(config).sign('preferences', contactId)}`;
}

/** The contact a token names, or null when it is malformed or its signature does not match. */
export function contactOfToken(config: LinkSecrets, token: string): string | null {
  const [contactId = '', signature = '', ...rest] = token.split('.');
  if (rest.length > 0 || !UUID.test(contactId)) return null;
  return linkSigner(config).verify('preferences', signature, contactId.toLowerCase()) ? contactId.toLowerCase() : null;
}
