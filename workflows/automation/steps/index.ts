import type { StepSnapshot, StepType } from '../definition';
import { conditionStep } from './condition';
import { delay } from './delay';
import { exit } from './exit';
import { sendEmail } from './send-email';
import { randomSplit } from './random-split';
import type { StopEnv, StepRun, StopStep, WorkflowStep } from './step';
import { updateContact } from './update-contact';
import { waitForEvent } from './wait-for-event';
import { webhook } from './webhook';

/** Every step type's workflow side: its results, its words and how the driver moves through it. A new type is one line here. */
export const WORKFLOW_STEPS: { [T in StepType]: WorkflowStep<T> } = {
  SEND_EMAIL: sendEmail,
  DELAY: delay,
  WAIT_FOR_EVENT: waitForEvent,
  CONDITION: conditionStep,
  WEBHOOK: webhook,
  UPDATE_CONTACT: updateContact,
  EXIT: exit,
  RANDOM_SPLIT: randomSplit,
};

/** The workflow side of a step's type. */
export const stepType = (step: StepSnapshot): WorkflowStep<StepType> => WORKFLOW_STEPS[step.type];

/** The step's stop side, for a step the workflow runs itself (null for a quick step). */
export function stopOf(step: StepSnapshot): StopStep<StepType> | null {
  const type = stepType(step);
  return type.kind === 'stop' ? type : null;
}

/** Runs a stop step, just entered, and reports what it came to. */
export const runStop = (step: StepSnapshot, env: StopEnv): Promise<StepRun> =>
  (stopOf(step)!.run as (step: StepSnapshot, env: StopEnv) => Promise<StepRun>)(step, env);
