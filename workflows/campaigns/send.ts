import { continueAsNew, proxyActivities, setCurrentDetails, sleep, workflowInfo } from '@temporalio/workflow';
import type { CampaignActivities } from '../../activities/campaigns';
import type { SendRef } from '../../src/modules/campaigns/send-run';
import {
  SNAPSHOT_FACTOR,
  STEPS_PER_RUN,
  grouped,
  progressDetails,
  type CampaignSendInput,
  type CampaignSendState,
} from './ids';

// Batches heartbeat: one on a worker that died is retried within ten seconds.
const batches = proxyActivities<CampaignActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { maximumInterval: '1 minute' },
});

export type CampaignSendOutcome = 'SENT' | 'STOPPED';

/** Waits for the scheduled time on a durable timer, then takes the campaign to SENDING. */
async function begin(input: CampaignSendInput, ref: SendRef): Promise<CampaignSendState | null> {
  if (input.scheduledFor) {
    const wait = new Date(input.scheduledFor).getTime() - Date.now();
    if (wait > 0) await sleep(wait, { summary: `Wait until ${input.scheduledFor}` });
  }
  const begun = await batches.beginCampaignSend(ref);
  return begun && { phase: 'snapshot', asOf: begun.asOf, after: null };
}

/** One activity's worth of the send; 'done' when every email was handed to SMTP or failed, null when stopped. */
async function advance(input: CampaignSendInput, ref: SendRef, state: CampaignSendState): Promise<CampaignSendState | 'done' | null> {
  switch (state.phase) {
    case 'snapshot': {
      const size = input.batchSize * SNAPSHOT_FACTOR;
      const batch = await batches.snapshotCampaignRecipients.executeWithOptions(
        { summary: `Fix the next ${grouped(size)} recipients` },
        [{ ...ref, asOf: state.asOf, after: state.after, size }],
      );
      if (!batch) return null;
      if (batch.total === null) return { ...state, after: batch.last };
      return { phase: 'enqueue', total: batch.total, after: null, processed: 0, emails: 0, pending: 0 };
    }
    case 'enqueue': {
      const first = state.processed + 1;
      const batch = await batches.enqueueCampaignEmails.executeWithOptions(
        { summary: `Create the emails of recipients ${grouped(first)}–${grouped(Math.min(state.total, first + input.batchSize - 1))}` },
        [{ ...ref, after: state.after, size: input.batchSize }],
      );
      if (!batch) return null;
      const emails = state.emails + batch.emails;
      if (batch.last === null) return { phase: 'deliver', total: state.total, emails, pending: batch.pending };
      return { ...state, after: batch.last, processed: state.processed + batch.processed, emails, pending: batch.pending };
    }
    case 'deliver': {
      if (state.pending === 0) return 'done';
      const progress = await batches.awaitCampaignDelivery.executeWithOptions(
        { summary: `Wait for ${grouped(state.pending)} emails to be handed to SMTP`, startToCloseTimeout: '2 minutes' },
        [{ ...ref, pending: state.pending }],
      );
      return progress && { ...state, pending: progress.pending };
    }
  }
}

/**
 * Sends one campaign (workflow ID `campaign:<id>`): waits until `scheduledFor` if given, fixes the
 * recipients into campaign_recipients in cursor-paged batches, creates their emails a batch per activity
 * through the delivery API, waits until none is pending, then marks the campaign SENT. Every step checks
 * that the campaign still carries this send, so a cancel (or a restart under a new send) stops it. Long
 * sends continue as new with where they stand.
 */
export async function campaignSend(input: CampaignSendInput): Promise<CampaignSendOutcome> {
  const ref = { campaignId: input.campaignId, sendId: input.sendId };
  let state = input.state ?? (await begin(input, ref));
  for (let steps = 0; state; steps++) {
    setCurrentDetails(progressDetails(state));
    if (steps > 0 && (steps >= STEPS_PER_RUN || workflowInfo().continueAsNewSuggested)) {
      await continueAsNew<typeof campaignSend>({ ...input, state });
    }
    const next: CampaignSendState | 'done' | null = await advance(input, ref, state);
    if (next === 'done') return (await batches.finishCampaignSend(ref)) ? 'SENT' : 'STOPPED';
    state = next;
  }
  return 'STOPPED';
}
