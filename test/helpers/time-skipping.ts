import type { Client } from '@temporalio/client';
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
 * Stops a domain's check loop once it sleeps: on the time-skipping server it would run a check, a real DNS
 * lookup, for every five minutes a test skips.
 */
export async function quietDomain(stack: TestStack, domainId: string): Promise<void> {
  await sleeping(stack.deps.temporal, domainVerifyWorkflowId(domainId));
  await stopDomainVerify(stack.deps.temporal, domainId);
}

/** Stops the check loops of the project's domains (quietDomain). */
export async function quietDomains(stack: TestStack, project: SenderTenant['project']): Promise<void> {
  for (const domain of await listDomains(stack, project)) await quietDomain(stack, domain.id);
}

/** A sender tenant whose domain check loop is stopped (quietDomain). */
export async function quietSenderTenant(stack: TestStack, local?: string): Promise<SenderTenant> {
  const t = await senderTenant(stack, local);
  await quietDomains(stack, t.project);
  return t;
}
