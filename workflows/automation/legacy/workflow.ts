import {
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { stepSummary } from '../describe';
import { firstStep, type Next } from '../entry';
import { nextStep } from '../interpreter';
import { AutomationIdKey, CurrentStepKey } from '../../search-attributes';
import { STEP_FAILED, type AutomationInput, type AutomationResult } from '../ids';
import { Inbox } from '../inbox';
import { Mirror } from '../mirror';
import { automationEvent, failureMessage, isGone, projectReinstated } from '../failures';
import { Hold } from '../hold';
import { runLegacyStep, saveAutomationState } from './steps';

/** Only runs started with search attributes (not on the time-skipping test server) update CurrentStep. */
function markCurrentStep(stepId: string): void {
  if (workflowInfo().typedSearchAttributes.get(AutomationIdKey) !== undefined)
    upsertSearchAttributes([{ key: CurrentStepKey, value: stepId }]);
}

/**
 * Runs started before `automationV2` (docs/automations.md "Versions"): the same interpreter, one local
 * activity per step. Frozen, as its recorded histories must replay; it goes once no such run is in flight
 * (`WorkflowType = "automation" AND ExecutionStatus = "Running"` lists none).
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
      const run = await runLegacyStep(step, { executionId: input.executionId, projectId: input.projectId, mirror, inbox, hold, summary });
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
