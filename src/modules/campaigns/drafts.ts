import type { Config } from '../../config';
import type { EmailDraft } from '../emails/enqueue';
import { subscriptionLinks } from '../links/subscription';
import { renderEmail, templateVariables, type RecipientContact } from '../templates/render';
import type { Campaign } from './entities';

export type CampaignContent = Pick<Campaign, 'id' | 'projectId' | 'subject' | 'body' | 'from' | 'fromName' | 'replyTo' | 'type'>;

const TEST_SUBJECT_PREFIX = '[TEST] ';

/** The campaign rendered for one recipient, as the delivery API takes it. */
export async function campaignDraft(config: Config, campaign: CampaignContent, contact: RecipientContact): Promise<EmailDraft> {
  const scope = templateVariables({ contact, links: subscriptionLinks(config, contact.id) });
  const rendered = await renderEmail({ subject: campaign.subject, body: campaign.body }, scope);
  return {
    projectId: campaign.projectId,
    contactId: contact.id,
    to: { email: contact.email },
    from: { email: campaign.from, name: campaign.fromName },
    replyTo: campaign.replyTo,
    subject: rendered.subject,
    html: rendered.body,
    sourceType: 'CAMPAIGN',
    marketing: campaign.type === 'MARKETING',
    campaignId: campaign.id,
  };
}

/**
 * A test send (POST /campaigns/{id}/test): rendered as for the recipient's contact, subject prefixed. It is
 * no recipient of the campaign (no campaign key, so it neither counts in its statistics nor blocks the real
 * email to the same contact) and it travels in the transactional lane, ahead of campaign backlogs.
 */
export async function testDraft(config: Config, campaign: CampaignContent, contact: RecipientContact): Promise<EmailDraft> {
  const draft = await campaignDraft(config, campaign, contact);
  return { ...draft, contactId: null, campaignId: null, sourceType: 'TRANSACTIONAL', subject: `${TEST_SUBJECT_PREFIX}${draft.subject}` };
}
