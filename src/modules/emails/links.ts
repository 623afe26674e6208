import type { Config } from '../../config';
import type { SubscriptionLinks } from '../templates/render';

/**
 * The `unsubscribeUrl`, `subscribeUrl` and `manageUrl` template variables of a recipient: pages of the
 * service, addressed by contact. The subscription pages (and signing these links) are built with tracking
 * and List-Unsubscribe; every producer takes its links from here so that they change in one place.
 */
export function subscriptionLinks(config: Pick<Config, 'PUBLIC_URL'>, contactId: string): SubscriptionLinks {
  const page = (name: string) => new URL(`/${name}/${contactId}`, config.PUBLIC_URL).toString();
  return { unsubscribeUrl: page('unsubscribe'), subscribeUrl: page('subscribe'), manageUrl: page('manage') };
}
