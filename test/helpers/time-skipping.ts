import type { Client } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { stopDomainVerify } from '../../src/temporal/domain-verify';
import { domainVerifyWorkflowId } from '../../workflows/domain-verify/ids';
import { listDomains } from '../domains/helpers';
import type { TestStack } from './stack';
import { senderTenant, type SenderTenant } from './tenants';
import { waitFor } from './wait';

/**
 * Waits until the workflow sleeps on a timer with nothing else under way: its history ends with the timer's
 * start, so no workflow task, activity or child is outstanding. Tests end or replace runs only then: the
 * test server never releases the time lock of a task that a termination cut short, so every later skip of
 * the file would wait in real time (an earlier timer in the history proves nothing: the run may have woken
 * since and be in its next task).
 */
export const sleeping = (temporal: { client: Client }, workflowId: string) =>
  waitFor(`${workflowId} to sleep on its timer`, async () => {
    const events = (await temporal.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    return events.at(-1)?.timerStartedEventAttributes ? true : undefined;
  });

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
