import { WorkflowNotFoundError } from '@temporalio/client';
import type { TemporalGateway } from './client';
import { fairnessOf } from './fairness';
import { CampaignIdKey, ProjectIdKey } from '../../workflows/search-attributes';
import type { campaignSend } from '../../workflows/campaigns/send';
import { WINNER_CHOSEN_SIGNAL, campaignSummary, campaignWorkflowId, type CampaignSendInput } from '../../workflows/campaigns/ids';

export interface CampaignSendStart {
  input: CampaignSendInput;
  name: string;
  /** The audience counted when the send was asked for, for the summary. */
  audience: number;
}

/**
 * Starts the campaign's send. A run already there (the timer of an earlier schedule, or a send that a failed
 * cancel could not stop) is terminated first: it belongs to an older send, whose steps would stop anyway.
 */
export async function startCampaignSend(temporal: TemporalGateway, start: CampaignSendStart): Promise<void> {
  const { input } = start;
  await temporal.client.workflow.start<typeof campaignSend>('campaignSend', {
    taskQueue: temporal.taskQueue,
    workflowId: campaignWorkflowId(input.campaignId),
    args: [input],
    workflowIdConflictPolicy: 'TERMINATE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    staticSummary: campaignSummary(start.name, start.audience),
    ...fairnessOf(input.projectId),
    ...(temporal.searchAttributes
      ? {
          typedSearchAttributes: [
            { key: ProjectIdKey, value: input.projectId },
            { key: CampaignIdKey, value: input.campaignId },
          ],
        }
      : {}),
  });
}

/** Terminates the campaign's run; false when none was running. Its steps would find the send gone anyway. */
export async function stopCampaignSend(temporal: TemporalGateway, campaignId: string, reason: string): Promise<boolean> {
  try {
    await temporal.client.workflow.getHandle(campaignWorkflowId(campaignId)).terminate(reason);
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

/** Wakes the run waiting for an A/B test's winner; a run that is gone has nothing to wake. */
export async function signalWinnerChosen(temporal: TemporalGateway, campaignId: string): Promise<void> {
  try {
    await temporal.client.workflow.getHandle(campaignWorkflowId(campaignId)).signal(WINNER_CHOSEN_SIGNAL);
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}
