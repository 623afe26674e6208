import { subscriptionLinks, type LinkSettings } from './subscription';

const NAMES = ['list-unsubscribe', 'list-unsubscribe-post'];

/**
 * The headers that let mail clients offer "Unsubscribe" next to a MARKETING email: the contact's unsubscribe
 * page, which also takes RFC 8058's one-click POST. They replace any the sender gave, which could point
 * elsewhere. There is no mailto: form: the service receives no mail (docs/tracking.md). Mail about a topic
 * leaves that topic only.
 */
export function withListUnsubscribe(
  config: LinkSettings,
  contactId: string,
  topicId: string | null,
  headers: Record<string, string>,
): Record<string, string> {
  const kept = Object.entries(headers).filter(([name]) => !NAMES.includes(name.toLowerCase()));
  return {
    ...Object.fromEntries(kept),
    'List-Unsubscribe': `<${subscriptionLinks(config, contactId, topicId).unsubscribeUrl}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}
