import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { stopDomainVerify } from '../../src/temporal/domain-verify';
import { domainVerifyWorkflowId } from '../../workflows/domain-verify/ids';
import { listDomains } from '../domains/helpers';
import type { TestStack } from './stack';
import { senderTenant, type SenderTenant } from './tenants';
import { waitFor } from './wait';

/**
 * Waits until the workflow sleeps on a timer with nothing else under way (idleOnTimer), so no workflow task,
 * activity or child is outstanding. Tests end or replace runs only then: the
 * test server never releases the time lock of a task that a termination cut short, so every later skip of
 * the file would wait in real time (an earlier timer in the history proves nothing: the run may have woken
 * since and be in its next task).
 */
export async function sleeping(env: { client: Client }, workflowId: string): Promise<void> {
  try {
    await waitFor(`${workflowId} to sleep on its timer`, async () => {
      const events = (await env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
      return idleOnTimer(events) ? true : undefined;
    });
  } catch (err) {
    throw new Error(`${(err as Error).message}; ${await whereRunStands(env.client, workflowId)}`);
  }
}

/**
 * The history ends with a timer's start, or with workflow tasks after it that completed with no command: under
 * load the test server was seen to schedule one right after the timer's task, with no event that asked for it
 * (completed, it holds no lock).
 */
function idleOnTimer(events: temporal.api.history.v1.IHistoryEvent[]): boolean {
  const { EventType } = temporal.api.enums.v1;
  const taskEvents = [
    EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
    EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED,
    EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
  ];
  let last = events.length - 1;
  if (events[last]?.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
    while (last >= 0 && taskEvents.includes(events[last]!.eventType ?? EventType.EVENT_TYPE_UNSPECIFIED)) last--;
  }
  return events[last]?.eventType === EventType.EVENT_TYPE_TIMER_STARTED;
}

/** For a wait's failure: the run's status, pending activities and last history events. */
export async function whereRunStands(client: Client, workflowId: string): Promise<string> {
  const handle = client.workflow.getHandle(workflowId);
  const run = await handle.describe();
  const pending = run.raw.pendingActivities?.map((a) => `${a.activityType?.name} attempt ${a.attempt} ${a.lastFailure?.message ?? ''}`);
  const last = ((await handle.fetchHistory()).events ?? []).slice(-6).map((e) => temporal.api.enums.v1.EventType[e.eventType ?? 0]);
  return `run ${run.status.name}, pending activities ${JSON.stringify(pending ?? [])}, last events ${JSON.stringify(last)}`;
}

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
