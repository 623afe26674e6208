import type { LinkSecrets } from '../../crypto/link-signer';
import { idOfToken, idToken } from './id-token';

/**
 * The token of a contact's subscription pages: its id and a signature of it, so that a link names one contact
 * and cannot be edited into another's. It never expires: unsubscribe links in old emails must keep working.
 */
export const preferenceToken = (config: LinkSecrets, contactId: string): string => idToken(config, 'preferences', contactId);

/** The contact a token names, or null when it is malformed or its signature does not match. */
export const contactOfToken = (config: LinkSecrets, token: string): string | null => idOfToken(config, 'preferences', token);
