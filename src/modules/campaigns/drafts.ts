import type { Config } from '../../config';
import { draftFor } from '../emails/draft';
import type { EmailDraft } from '../emails/enqueue';
import type { RecipientContact } from '../templates/render';
import type { Campaign } from './entities';

export type CampaignContent = Pick<
  Campaign,
  'id' | 'projectId' | 'subject' | 'body' | 'text' | 'from' | 'fromName' | 'replyTo' | 'type' | 'tags' | 'topicId'
>;

const TEST_SUBJECT_PREFIX = '[TEST] ';

/** The campaign rendered for one recipient, as the delivery API takes it. */
export async function campaignDraft(config: Config, campaign: CampaignContent, contact: RecipientContact): Promise<EmailDraft> {
  const content = {
    subject: campaign.subject,
    body: campaign.body,
    text: campaign.text,
    from: { email: campaign.from, name: campaign.fromName },
    replyTo: campaign.replyTo,
    marketing: campaign.type === 'MARKETING',
    tags: campaign.tags,
    topicId: campaign.topicId ?? null,
  };
  const draft = await draftFor(config, content, { projectId: campaign.projectId, contact, sourceType: 'CAMPAIGN' });
  return { ...draft, campaignId: campaign.id };
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
