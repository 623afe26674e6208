import type { StepSnapshot, StepType } from '../definition';
import { conditionStep } from './condition';
import { delay } from './delay';
import { exit } from './exit';
import { sendEmail } from './send-email';
import type { StepEnv, StepRun, WorkflowStep } from './step';
import { updateContact } from './update-contact';
import { waitForEvent } from './wait-for-event';
import { webhook } from './webhook';

/** Every step type's workflow side: its results, its words and its run. A new type is one line here. */
export const WORKFLOW_STEPS: { [T in StepType]: WorkflowStep<T> } = {
  SEND_EMAIL: sendEmail,
  DELAY: delay,
  WAIT_FOR_EVENT: waitForEvent,
  CONDITION: conditionStep,
  WEBHOOK: webhook,
  UPDATE_CONTACT: updateContact,
  EXIT: exit,
};

/** The workflow side of a step's type. */
export const stepType = (step: StepSnapshot): WorkflowStep<StepType> => WORKFLOW_STEPS[step.type];

/** Runs one step, just entered, and reports what it came to. */
export const runStep = (step: StepSnapshot, env: StepEnv): Promise<StepRun> => stepType(step).run(step, env);
