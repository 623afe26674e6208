import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { TemporalGateway } from './client';
import { ifRunning } from './if-running';
import { projectWorkflow } from './project-workflow';
import type { webhookEndpoint } from '../../workflows/webhooks/workflow';
import { WAKE_SIGNAL, webhookEndpointSummary, webhookEndpointWorkflowId } from '../../workflows/webhooks/ids';

interface EndpointRef {
  id: string;
  projectId: string;
  url: string;
}

const startOptions = (temporal: TemporalGateway, endpoint: EndpointRef) => ({
  taskQueue: temporal.taskQueue,
  workflowId: webhookEndpointWorkflowId(endpoint.id),
  args: [{ endpointId: endpoint.id }] as [{ endpointId: string }],
  workflowIdReusePolicy: 'ALLOW_DUPLICATE' as const,
  staticSummary: webhookEndpointSummary(endpoint.url, endpoint.projectId),
  ...projectWorkflow(temporal, endpoint.projectId),
});

/** Starts the endpoint's delivery loop; one already running is kept, so calling this again is harmless. */
export async function startWebhookEndpoint(temporal: TemporalGateway, endpoint: EndpointRef): Promise<void> {
  try {
    await temporal.client.workflow.start<typeof webhookEndpoint>('webhookEndpoint', startOptions(temporal, endpoint));
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** Tells the loop there may be new events; starts it when it is not running (e.g. it was started while Temporal was down). */
export async function wakeWebhookEndpoint(temporal: TemporalGateway, endpoint: EndpointRef): Promise<void> {
  await temporal.client.workflow.signalWithStart<typeof webhookEndpoint, []>('webhookEndpoint', {
    ...startOptions(temporal, endpoint),
    signal: WAKE_SIGNAL,
    signalArgs: [],
  });
}

/** Terminates the loop of a deleted endpoint; its rows are gone with it. False when it was not running. */
export const stopWebhookEndpoint = (temporal: TemporalGateway, endpointId: string): Promise<boolean> =>
  ifRunning(() => temporal.client.workflow.getHandle(webhookEndpointWorkflowId(endpointId)).terminate('webhook endpoint deleted'));
