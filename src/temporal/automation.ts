import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { TemporalGateway } from './client';
import { ifRunning } from './if-running';
import { projectWorkflow } from './project-workflow';
import { AutomationIdKey, ContactIdKey, CurrentStepKey } from '../../workflows/search-attributes';
import type { automationV2 } from '../../workflows/automation/workflow';
import {
  AUTOMATION_EVENT_SIGNAL,
  AUTOMATION_GOAL_SIGNAL,
  MIGRATE_VERSION_SIGNAL,
  PROJECT_REINSTATED_SIGNAL,
  type VersionMigration,
  type AutomationEvent,
  type AutomationInput,
} from '../../workflows/automation/ids';

export interface StartAutomation {
  workflowId: string;
  input: AutomationInput;
  summary: string;
  /** CurrentStep from the start: where the run first stops (firstStop), else its entry step. */
  currentStepId: string | null;
}

/**
 * Starts an execution's workflow. Each ID is used once: a repeated start of the same execution (say, the
 * outbox handing its trigger over again) finds it running or done and is a no-op.
 */
export async function startAutomation(temporal: TemporalGateway, start: StartAutomation, signal?: AbortSignal): Promise<void> {
  const { input } = start;
  const options = projectWorkflow(temporal, input.projectId, [
    { key: ContactIdKey, value: input.contactId },
    { key: AutomationIdKey, value: input.automationId },
    ...(start.currentStepId ? [{ key: CurrentStepKey, value: start.currentStepId }] : []),
  ]);
  const run = () =>
    temporal.client.workflow.start<typeof automationV2>('automationV2', {
      taskQueue: temporal.taskQueue,
      workflowId: start.workflowId,
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
      staticSummary: start.summary,
      requestEagerStart: temporal.eagerStart,
      ...options,
    });
  try {
    await (signal ? temporal.client.withAbortSignal(signal, run) : run());
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** Requests cancellation; false when the workflow is not running (finished, or never started). */
export const cancelAutomation = (temporal: TemporalGateway, workflowId: string): Promise<boolean> =>
  ifRunning(() => temporal.client.workflow.getHandle(workflowId).cancel());

const signalEvent = (temporal: TemporalGateway, name: string, workflowId: string, event: AutomationEvent, signal?: AbortSignal) => {
  const send = () => temporal.client.workflow.getHandle(workflowId).signal(name, event);
  return ifRunning(() => (signal ? temporal.client.withAbortSignal(signal, send) : send()));
};

/** Hands an event to a waiting execution; false when its workflow has already finished. */
export const signalAutomation = (temporal: TemporalGateway, workflowId: string, event: AutomationEvent, signal?: AbortSignal) =>
  signalEvent(temporal, AUTOMATION_EVENT_SIGNAL, workflowId, event, signal);

/** Tells an execution that the event reaches its goal; false when its workflow has already finished. */
export const reachAutomationGoal = (temporal: TemporalGateway, workflowId: string, event: AutomationEvent, signal?: AbortSignal) =>
  signalEvent(temporal, AUTOMATION_GOAL_SIGNAL, workflowId, event, signal);

/** Tells an execution held by its project's suspension that the project was reinstated; false when it has finished. */
export const wakeHeldAutomation = (temporal: TemporalGateway, workflowId: string): Promise<boolean> =>
  ifRunning(() => temporal.client.workflow.getHandle(workflowId).signal(PROJECT_REINSTATED_SIGNAL));

/** Asks a waiting execution to move to another version of its automation; false when its workflow has finished. */
export const migrateAutomationRun = (temporal: TemporalGateway, workflowId: string, migration: VersionMigration): Promise<boolean> =>
  ifRunning(() => temporal.client.workflow.getHandle(workflowId).signal(MIGRATE_VERSION_SIGNAL, migration));
