import type { Config } from '../../config';
import type { LinkSecrets } from '../../crypto/link-signer';
import { preferenceToken } from './preference-token';
import type { SubscriptionLinks } from '../templates/render';

/** What building links into emails takes from the settings. */
export type LinkSettings = Pick<Config, 'PUBLIC_URL'> & LinkSecrets;

const roots = new Map<string, string>();

/**
 * PUBLIC_URL's root ("https://host/"), parsed once: a campaign builds these links twice per recipient, and
 * parsing three URLs each time was 4% of a worker's CPU.
 */
function rootOf(publicUrl: string): string {
  let root = roots.get(publicUrl);
  if (root === undefined) {
    root = new URL('/', publicUrl).href;
    roots.set(publicUrl, root);
  }
  return root;
}

/**
 * The `unsubscribeUrl`, `subscribeUrl` and `manageUrl` template variables of a recipient: the subscription
 * pages of the service (src/modules/preferences), addressed by a token signed for the contact. Mail about a
 * topic unsubscribes from that topic only (`?topic=`, docs/consent.md). Every producer takes its links from
 * here so that they change in one place. The token is a uuid and base64url, which a URL's path keeps as it is.
 */
export function subscriptionLinks(config: LinkSettings, contactId: string, topicId: string | null = null): SubscriptionLinks {
  const token = preferenceToken(config, contactId);
  const page = (name: string) => `${rootOf(config.PUBLIC_URL)}${name}/${token}`;
  const topic = topicId === null ? '' : `?${new URLSearchParams({ topic: topicId }).toString()}`;
  return { unsubscribeUrl: `${page('unsubscribe')}${topic}`, subscribeUrl: page('subscribe'), manageUrl: page('manage') };
}
