import { linkSigner } from '../../crypto/link-signer';
import type { LinkSettings } from './subscription';
import { appendPixel, rewriteLinks } from './tracking-html';

/**
 * The open pixel and click redirect URLs of an email. Both are signed: the pixel so that opens cannot be
 * recorded for someone else's email, the redirect so that it only ever leads where the email's own link led
 * (it cannot serve as an open redirect).
 */

const openParts = (emailId: string) => ['open', emailId];
const clickParts = (emailId: string, target: string) => ['click', emailId, target];

export function openPixelUrl(config: LinkSettings, emailId: string): string {
  const url = new URL(`/t/o/${emailId}`, config.PUBLIC_URL);
  url.searchParams.set('s', linkSigner(config).sign('tracking', ...openParts(emailId)));
  return url.toString();
}

export function clickUrl(config: LinkSettings, emailId: string, target: string): string {
  const url = new URL(`/t/c/${emailId}`, config.PUBLIC_URL);
  url.searchParams.set('u', target);
  url.searchParams.set('s', linkSigner(config).sign('tracking', ...clickParts(emailId, target)));
  return url.toString();
}

export const isSignedOpen = (config: LinkSettings, emailId: string, signature: string) =>
  linkSigner(config).verify('tracking', signature, ...openParts(emailId));

export const isSignedClick = (config: LinkSettings, emailId: string, target: string, signature: string) =>
  linkSigner(config).verify('tracking', signature, ...clickParts(emailId, target));

/** Only web pages are tracked: mailto:, tel:, anchors and relative links are left alone. */
export function isWebPage(target: string): boolean {
  try {
    const { protocol } = new URL(target);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The email's HTML with its links to web pages going through the click redirect, and the open pixel. Links
 * to the service itself (the subscription pages) are not clicks on the content and stay as they are.
 */
export function trackHtml(config: LinkSettings, emailId: string, html: string): string {
  const own = new URL(config.PUBLIC_URL).origin;
  const tracked = rewriteLinks(html, (target) =>
    isWebPage(target) && new URL(target).origin !== own ? clickUrl(config, emailId, target) : null,
  );
  return appendPixel(tracked, openPixelUrl(config, emailId));
}
