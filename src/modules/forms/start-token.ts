import { linkSigner, type LinkSecrets } from '../../crypto/link-signer';

/**
 * The start token of a signup form (docs/consent.md "The public endpoint"): when the form was shown, signed for
 * that form, so that a submission says how long it took to fill in and a bot cannot claim more.
 */

/** A form shown longer ago than this is shown again rather than taken. */
export const MAX_FORM_AGE_MS = 24 * 3_600_000;

export const startToken = (config: LinkSecrets, formId: string, shownAt: number): string =>
  `${shownAt}.${linkSigner(config).sign('signup', formId, String(shownAt))}`;

export type StartCheck = 'ok' | 'missing' | 'too_fast' | 'too_old';

/** How the token of a submission at `now` stands: a forged or malformed token counts as missing. */
export function checkStart(config: LinkSecrets, formId: string, token: string | undefined, now: number, minFillMs: number): StartCheck {
  const [shown = '', signature = '', ...rest] = (token ?? '').split('.');
  if (rest.length > 0 || !/^\d{1,15}$/.test(shown) || !linkSigner(config).verify('signup', signature, formId, shown)) return 'missing';
  const elapsed = now - Number(shown);
  if (elapsed < minFillMs) return 'too_fast';
  return elapsed > MAX_FORM_AGE_MS ? 'too_old' : 'ok';
}
