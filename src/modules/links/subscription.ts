import type { Config } from '../../config';
import type { LinkSecrets } from '../../crypto/link-signer';
import { preferenceToken } from './preference-token';
import type { SubscriptionLinks } from '../templates/render';

/** What building links into emails takes from the settings. */
export type LinkSettings = Pick<Config, 'PUBLIC_URL'> & LinkSecrets;

/**
 * The `unsubscribeUrl`, `subscribeUrl` and `manageUrl` template variables of a recipient: the subscription
 * pages of the service (src/modules/preferences), addressed by a token signed for the contact. Mail about a
 * topic unsubscribes from that topic only (`?topic=`, docs/consent.md). Every producer takes its links from
 * here so that they change in one place.
 */
export function subscriptionLinks(config: LinkSettings, contactId: string, topicId: string | null = null): SubscriptionLinks {
  const token = preferenceToken(config, contactId);
  const page = (name: string) => new URL(`/${name}/${token}`, config.PUBLIC_URL);
  const unsubscribe = page('unsubscribe');
  if (topicId !== null) unsubscribe.searchParams.set('topic', topicId);
  return { unsubscribeUrl: unsubscribe.toString(), subscribeUrl: page('subscribe').toString(), manageUrl: page('manage').toString() };
}
