import type { StepSnapshot } from './definition';
import { stepType } from './steps';

/** A step in words, e.g. `DELAY 2 days` or `"Nudge" WAIT_FOR_EVENT paid (timeout 2 days)`. */
export function describeStep(step: StepSnapshot): string {
  return [step.name ? JSON.stringify(step.name) : '', step.type, stepType(step).detail(step.config)].filter(Boolean).join(' ');
}

/** What the Temporal Web UI shows for an execution at its `n`-th step: `Welcome series: step 3, DELAY 2 days`. */
export const stepSummary = (automationName: string, n: number, step: StepSnapshot) => `${automationName}: step ${n}, ${describeStep(step)}`;
