import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { newId } from '../../db/columns';
import { ApiError, badRequest, forbidden, validationError } from '../../http/errors';
import { callTemporal } from '../../temporal/unavailable';
import { signalWinnerChosen, startCampaignSend, stopCampaignSend } from '../../temporal/campaigns';
import { grouped } from '../../../workflows/campaigns/ids';
import { Contact } from '../contacts/entities';
import { normalizeEmail } from '../contacts/email';
import { assertVerifiedSender } from '../domains/sender';
import { enqueueEmails } from '../emails/enqueue';
import { forgetCampaignEmails, withdrawCampaignEmails } from '../emails/campaign-queue';
import { asFilterField } from '../filters/errors';
import { listMembers } from '../members/service';
import { Segment } from '../segments/entities';
import { countAudience } from './audience';
import { parseDateTime } from './date-time';
import { testDraft } from './drafts';
import type { Campaign } from './entities';
import { assertStatus, findCampaign, lockCampaign } from './service';
import { abPlan, chooseWinner, variantsView } from './ab-test';

/** `scheduledFor` as the platform's date parser reads it: null sends now; unreadable or not in the future is a 400. */
export function scheduleTime(value: unknown, now = new Date()): Date | null {
  if (value === undefined || value === null) return null;
  const at = parseDateTime(value);
  if (!at) {
    throw badRequest(`scheduledFor: cannot read ${JSON.stringify(value)} as a date and time`, {
      errors: [{ field: 'scheduledFor', message: 'Not a date and time', code: 'invalid_date' }],
      suggestion: 'Use ISO 8601 (2026-05-01T09:30:00Z, or with an offset such as +02:00), or omit it to send now.',
    });
  }
  if (at.getTime() <= now.getTime()) {
    throw badRequest(`scheduledFor must be in the future; ${at.toISOString()} has passed`, {
      errors: [{ field: 'scheduledFor', message: 'Must be in the future', code: 'past_date' }],
      suggestion: 'Omit scheduledFor to send now.',
    });
  }
  return at;
}

/** The audience as it will be sent: its segment must still exist and its condition still resolve. */
async function audienceForSending(em: EntityManager, campaign: Campaign): Promise<number> {
  if (campaign.audienceType === 'SEGMENT' && !(await em.count(Segment, { id: campaign.segmentId!, projectId: campaign.projectId }))) {
    throw validationError(
      [{ field: 'segmentId', message: 'The segment no longer exists', code: 'not_found' }],
      'segmentId: the segment no longer exists',
    );
  }
  return asFilterField('audienceCondition', () => countAudience(em, campaign));
}

/**
 * A send now that would reach nobody is refused (docs/campaigns.md "Sending"): 422, `errors[0].code`
 * `empty_audience`, nothing changed. A schedule is not: the audience is counted again when it starts.
 */
function emptyAudience(campaign: Campaign): never {
  const who = campaign.type === 'TRANSACTIONAL' ? 'contact' : 'subscribed contact';
  throw new ApiError(422, 'VALIDATION_ERROR', `The campaign would be sent to nobody: no ${who} matches its audience`, {
    errors: [{ field: 'audience', code: 'empty_audience', message: `No ${who} matches the audience` }],
    suggestion:
      'A contact made by /v1/send is not subscribed: subscribe contacts (PATCH /contacts/{id} with subscribed true, or a bulk subscribe), or choose another audience.',
  });
}

export interface SendOutcome {
  campaign: Campaign;
  message: string;
}

/**
 * POST /campaigns/{id}/send. From DRAFT, or SCHEDULED to reschedule it or send it now: the campaign becomes
 * SENDING (no time) or SCHEDULED, under a new send id, and its workflow starts in the same transaction, so a
 * failed start changes nothing (503). A run of the previous schedule is terminated by the start.
 */
export async function sendCampaign(
  deps: Deps,
  em: EntityManager,
  projectId: string,
  id: string,
  scheduledFor: unknown,
): Promise<SendOutcome> {
  const at = scheduleTime(scheduledFor);
  return em.transactional(async (tx) => {
    const campaign = await lockCampaign(tx, projectId, id);
    assertStatus(campaign, ['DRAFT', 'SCHEDULED'], 'sent');
    await assertVerifiedSender(tx, projectId, campaign.from);
    const audience = await audienceForSending(tx, campaign);
    if (!at && audience === 0) emptyAudience(campaign);
    campaign.status = at ? 'SCHEDULED' : 'SENDING';
    campaign.scheduledFor = at;
    const sendId = newId();
    campaign.sendId = sendId;
    campaign.totalRecipients = audience;
    // A send decides its own winner.
    campaign.abWinner = null;
    campaign.abDecidedBy = null;
    campaign.abDecidedAt = null;
    await tx.flush();
    await callTemporal('nothing was changed', () =>
      startCampaignSend(deps.temporal, {
        name: campaign.name,
        audience,
        input: {
          campaignId: campaign.id,
          projectId,
          sendId,
          scheduledFor: at?.toISOString() ?? null,
          batchSize: deps.config.CAMPAIGN_BATCH_SIZE,
          ...(campaign.abTest ? { ab: abPlan(campaign.abTest) } : {}),
        },
      }),
    );
    const message = at
      ? `Campaign scheduled for ${at.toISOString()}`
      : `Campaign is being sent to ${grouped(audience)} ${audience === 1 ? 'recipient' : 'recipients'}`;
    return { campaign, message };
  });
}

/**
 * POST /campaigns/{id}/cancel (docs/campaigns.md "Cancel"). SCHEDULED goes back to DRAFT. SENDING stops at once: every email
 * not yet handed over to the SMTP server is withdrawn, claimed or not, so that none begins or finishes an SMTP
 * transaction once this commits (docs/delivery.md, "Withdrawal"); if none had been handed over, the campaign
 * goes back to DRAFT as if never sent, else it is CANCELLED for good. The row lock orders this with the send's
 * steps, which recheck it. The run is then terminated; should that fail, its next step stops it.
 */
export async function cancelCampaign(deps: Deps, em: EntityManager, projectId: string, id: string): Promise<SendOutcome> {
  const outcome = await em.transactional(async (tx) => {
    const campaign = await lockCampaign(tx, projectId, id);
    assertStatus(campaign, ['SCHEDULED', 'SENDING'], 'cancelled');
    const { remaining } = campaign.status === 'SENDING' ? await withdrawCampaignEmails(tx, campaign.id) : { remaining: 0 };
    campaign.sendId = null;
    if (remaining === 0) {
      await tx.execute('delete from campaign_recipients where campaign_id = ?', [campaign.id]);
      await forgetCampaignEmails(tx, campaign.id);
      campaign.status = 'DRAFT';
      campaign.scheduledFor = null;
      return { campaign, message: 'Campaign cancelled before anything was sent; it is a DRAFT again' };
    }
    campaign.status = 'CANCELLED';
    return { campaign, message: `Campaign cancelled; ${grouped(remaining)} emails had already left, the rest will not be sent` };
  });
  await stopCampaignSend(deps.temporal, id, 'campaign cancelled').catch((err: unknown) =>
    deps.logger.warn({ err, campaignId: id }, 'could not terminate the campaign run; its next step stops it'),
  );
  return outcome;
}

/**
 * POST /campaigns/{id}/test: one email to a member of the project, through the delivery queue, rendered with
 * that address's contact data when the project has such a contact.
 */
export async function sendTest(deps: Deps, em: EntityManager, projectId: string, id: string, address: string) {
  const campaign = await findCampaign(em, projectId, id);
  const email = normalizeEmail(address);
  const members = await listMembers(em, projectId);
  if (!members.some((m) => normalizeEmail(m.email) === email)) {
    throw forbidden('Test emails go only to members of the project', 'FORBIDDEN');
  }
  await assertVerifiedSender(em, projectId, campaign.from);
  const contact = await em.findOne(Contact, { projectId, email });
  const recipient = contact ?? { id: newId(), email, subscribed: true, data: {} };
  const draft = await testDraft(deps.config, campaign, recipient);
  const [queued] = await enqueueEmails(em, [draft]);
  return { emailId: queued!.id, to: email, subject: draft.subject };
}

/**
 * POST /campaigns/{id}/winner: a person chooses the variant that goes to the rest, while the A/B test runs
 * (docs/campaigns.md "A/B tests"). Stored under the row lock, then the run is woken in the same transaction,
 * so a Temporal that cannot be reached changes nothing (503).
 */
export async function chooseCampaignWinner(deps: Deps, em: EntityManager, projectId: string, id: string, variant: number) {
  return em.transactional(async (tx) => {
    const campaign = await lockCampaign(tx, projectId, id);
    chooseWinner(campaign, variant);
    await tx.flush();
    await callTemporal('the winner was not chosen', () => signalWinnerChosen(deps.temporal, campaign.id));
    return variantsView(tx, campaign);
  });
}
