import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  defineSignal,
  isCancellation,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { stepSummary } from './describe';
import { firstStep, type Next } from './entry';
import { nextStep } from './interpreter';
import { AutomationIdKey, CurrentStepKey } from '../search-attributes';
import {
  AUTOMATION_EVENT_SIGNAL,
  EXECUTION_GONE,
  PROJECT_REINSTATED_SIGNAL,
  STEP_FAILED,
  type AutomationEvent,
  type AutomationInput,
  type AutomationResult,
} from './ids';
import { Hold } from './hold';
import { Inbox } from './inbox';
import { ExecutionGoneSignal, Mirror } from './mirror';
import { runStep } from './steps';
import { saveAutomationState } from './steps/activities';

export const automationEvent = defineSignal<[AutomationEvent]>(AUTOMATION_EVENT_SIGNAL);
export const projectReinstated = defineSignal(PROJECT_REINSTATED_SIGNAL);

/** The activity's own failure: wrapped in an ActivityFailure, or (local activities) as it is. */
const applicationFailure = (err: unknown) =>
  err instanceof ActivityFailure && err.cause instanceof ApplicationFailure
    ? err.cause
    : err instanceof ApplicationFailure
      ? err
      : undefined;

const isGone = (err: unknown) => err instanceof ExecutionGoneSignal || applicationFailure(err)?.type === EXECUTION_GONE;

/** The message of the failure that ended a step after its retries. */
const failureMessage = (err: unknown) => applicationFailure(err)?.message ?? (err instanceof Error ? err.message : String(err));

/** Only runs started with search attributes (not on the time-skipping test server) update CurrentStep. */
function markCurrentStep(stepId: string): void {
  if (workflowInfo().typedSearchAttributes.get(AutomationIdKey) !== undefined)
    upsertSearchAttributes([{ key: CurrentStepKey, value: stepId }]);
}

/**
 * One contact's execution of an automation: a thin driver around the step interpreter, running the
 * definition snapshot it was started with. Each step's I/O is an activity; the execution record mirrors
 * every change. Cancelling the workflow marks the execution CANCELLED; a step that fails after its retries
 * marks it FAILED and fails the run.
 */
export async function automation(input: AutomationInput): Promise<AutomationResult> {
  const inbox = new Inbox();
  setHandler(automationEvent, (event) => inbox.add(event));
  const hold = new Hold();
  setHandler(projectReinstated, () => hold.wake());
  const mirror = new Mirror(input.executionId, input.context, saveAutomationState);
  let next: Next = firstStep(input.definition);
  let steps = 0;
  try {
    while (next.kind === 'step') {
      const step = next.step;
      const summary = stepSummary(input.definition.name, ++steps, step);
      setCurrentDetails(summary);
      markCurrentStep(step.id);
      mirror.enter(step);
      const run = await runStep(step, { executionId: input.executionId, projectId: input.projectId, mirror, inbox, hold, summary });
      mirror.complete(run.output);
      next = nextStep(input.definition, step, run.result);
    }
    await mirror.end(next.status, next.status === 'EXITED' ? next.reason : null);
    setCurrentDetails(`${input.definition.name}: ${next.status.toLowerCase()} after ${steps} step(s)`);
    return { status: next.status, steps };
  } catch (err) {
    if (isGone(err)) return { status: 'GONE', steps };
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() => mirror.cancel());
      throw err;
    }
    const message = failureMessage(err);
    await mirror.fail(message).catch((failed: unknown) => {
      if (!isGone(failed)) throw failed;
    });
    throw ApplicationFailure.nonRetryable(`Step ${steps} failed: ${message}`, STEP_FAILED);
  }
}
