import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import type { TemporalGateway } from './client';
import { fairnessOf } from './fairness';
import { ProjectIdKey } from '../../workflows/search-attributes';
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
      ...fairnessOf(domain.projectId),
      ...(temporal.searchAttributes ? { typedSearchAttributes: [{ key: ProjectIdKey, value: domain.projectId }] } : {}),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * Terminates the loop of a deleted domain; there is nothing for it to clean up, and terminating works even
 * while no worker polls. False when it was not running.
 */
export async function stopDomainVerify(temporal: TemporalGateway, domainId: string): Promise<boolean> {
  try {
    await temporal.client.workflow.getHandle(domainVerifyWorkflowId(domainId)).terminate('domain deleted');
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}
