import type { LinkSettings } from './subscription';
import { idOfToken, idToken } from './id-token';

/**
 * The `confirmUrl` of a double opt-in email: the confirmation page of one pending confirmation, signed so that
 * it cannot be edited into another's. It stops working when the confirmation expires (docs/consent.md).
 */
export const confirmationUrl = (config: LinkSettings, confirmationId: string): string =>
  new URL(`/confirm/${idToken(config, 'confirmation', confirmationId)}`, config.PUBLIC_URL).toString();

/** The confirmation a token names, or null when it is forged or malformed. */
export const confirmationOfToken = (config: LinkSettings, token: string): string | null => idOfToken(config, 'confirmation', token);
