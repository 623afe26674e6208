import type { Config } from '../../config';
import { bodyFor, draftFor, headFor, type DraftContent, type DraftRecipient } from '../emails/draft';
import type { EmailDraft, RenderedDraft } from '../emails/enqueue';
import type { RecipientContact } from '../templates/render';
import type { Campaign } from './entities';

export type CampaignContent = Pick<
  Campaign,
  'id' | 'projectId' | 'subject' | 'body' | 'text' | 'from' | 'fromName' | 'replyTo' | 'type' | 'tags' | 'topicId'
>;

const TEST_SUBJECT_PREFIX = '[TEST] ';

const contentOf = (campaign: CampaignContent): DraftContent => ({
  subject: campaign.subject,
  body: campaign.body,
  text: campaign.text,
  from: { email: campaign.from, name: campaign.fromName },
  replyTo: campaign.replyTo,
  marketing: campaign.type === 'MARKETING',
  tags: campaign.tags,
  topicId: campaign.topicId ?? null,
});

const recipientOf = (campaign: CampaignContent, contact: RecipientContact): DraftRecipient => ({
  projectId: campaign.projectId,
  contact,
  sourceType: 'CAMPAIGN',
});

/** The campaign rendered for one recipient, as the delivery API takes it. */
export async function campaignDraft(config: Config, campaign: CampaignContent, contact: RecipientContact): Promise<RenderedDraft> {
  return { ...(await draftFor(config, contentOf(campaign), recipientOf(campaign, contact))), campaignId: campaign.id };
}

/**
 * A recipient's email as the send creates it: the subject rendered, the body rendered when it is sent
 * (campaignBody, by the pump: bodies.ts), its size taken from the templates, for the pump's memory budget.
 */
export async function campaignHead(config: Config, campaign: CampaignContent, contact: RecipientContact): Promise<EmailDraft> {
  const head = await headFor(config, contentOf(campaign), recipientOf(campaign, contact));
  const body = Buffer.byteLength(campaign.body);
  const sizeBytes = Buffer.byteLength(head.subject) + body + (campaign.text ? Buffer.byteLength(campaign.text) : body);
  return { ...head, campaignId: campaign.id, sizeBytes };
}

/** The HTML and text of a recipient's email, rendered as it is sent: campaignDraft's, with the contact as it is then. */
export const campaignBody = (config: Config, campaign: CampaignContent, contact: RecipientContact) =>
  bodyFor(config, contentOf(campaign), recipientOf(campaign, contact));

/**
 * A test send (POST /campaigns/{id}/test): rendered as for the recipient's contact, subject prefixed. It is
 * no recipient of the campaign (no campaign key, so it neither counts in its statistics nor blocks the real
 * email to the same contact) and it travels in the transactional lane, ahead of campaign backlogs.
 */
export async function testDraft(config: Config, campaign: CampaignContent, contact: RecipientContact): Promise<RenderedDraft> {
  const draft = await campaignDraft(config, campaign, contact);
  return { ...draft, contactId: null, campaignId: null, sourceType: 'TRANSACTIONAL', subject: `${TEST_SUBJECT_PREFIX}${draft.subject}` };
}
