import type { TemporalGateway } from './client';
import { ifRunning } from './if-running';
import { projectWorkflow } from './project-workflow';
import { CampaignIdKey } from '../../workflows/search-attributes';
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
    ...projectWorkflow(temporal, input.projectId, [{ key: CampaignIdKey, value: input.campaignId }]),
  });
}

/** Terminates the campaign's run; false when none was running. Its steps would find the send gone anyway. */
export const stopCampaignSend = (temporal: TemporalGateway, campaignId: string, reason: string): Promise<boolean> =>
  ifRunning(() => temporal.client.workflow.getHandle(campaignWorkflowId(campaignId)).terminate(reason));

/** Wakes the run waiting for an A/B test's winner; a run that is gone has nothing to wake. */
export async function signalWinnerChosen(temporal: TemporalGateway, campaignId: string): Promise<void> {
  await ifRunning(() => temporal.client.workflow.getHandle(campaignWorkflowId(campaignId)).signal(WINNER_CHOSEN_SIGNAL));
}
