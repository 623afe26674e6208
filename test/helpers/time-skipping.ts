import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { stopDomainVerify } from '../../src/temporal/domain-verify';
import { domainVerifyWorkflowId } from '../../workflows/domain-verify/ids';
import { listDomains } from '../domains/helpers';
import type { TestStack } from './stack';
import { senderTenant, type SenderTenant } from './tenants';
import { waitFor } from './wait';

/**
 * Waits until the workflow sleeps on a timer. Tests end or replace runs only then: the test server keeps
 * time from skipping for good when a run is terminated while one of its tasks is under way.
 */
export const sleeping = (env: TestWorkflowEnvironment, workflowId: string) =>
  waitFor(`${workflowId} to sleep on its timer`, async () =>
    (await env.client.workflow.getHandle(workflowId).fetchHistory()).events?.some((e) => e.timerStartedEventAttributes) ? true : undefined,
  );

/**
 * A sender tenant whose domain check loop is stopped: it would run every five minutes of the days a
 * time-skipping test skips, each check a real DNS lookup.
 */
export async function quietSenderTenant(stack: TestStack, env: TestWorkflowEnvironment, local?: string): Promise<SenderTenant> {
  const t = await senderTenant(stack, local);
  for (const domain of await listDomains(stack, t.project)) {
    await sleeping(env, domainVerifyWorkflowId(domain.id));
    await stopDomainVerify(stack.deps.temporal, domain.id);
  }
  return t;
}
