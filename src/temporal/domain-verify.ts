import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { TemporalGateway } from './client';
import { ifRunning } from './if-running';
import { projectWorkflow } from './project-workflow';
import type { domainVerify } from '../../workflows/domain-verify/workflow';
import { domainVerifySummary, domainVerifyWorkflowId } from '../../workflows/domain-verify/ids';

interface DomainRef {
  id: string;
  projectId: string;
  domain: string;
}

/** Starts the domain's check loop; a loop already running for it is kept, so calling this again is harmless. */
export async function startDomainVerify(temporal: TemporalGateway, domain: DomainRef): Promise<void> {
  try {
    await temporal.client.workflow.start<typeof domainVerify>('domainVerify', {
      taskQueue: temporal.taskQueue,
      workflowId: domainVerifyWorkflowId(domain.id),
      args: [{ domainId: domain.id }],
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      staticSummary: domainVerifySummary(domain.domain, domain.projectId),
      ...projectWorkflow(temporal, domain.projectId),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * Terminates the loop of a deleted domain; there is nothing for it to clean up, and terminating works even
 * while no worker polls. False when it was not running.
 */
export const stopDomainVerify = (temporal: TemporalGateway, domainId: string): Promise<boolean> =>
  ifRunning(() => temporal.client.workflow.getHandle(domainVerifyWorkflowId(domainId)).terminate('domain deleted'));
