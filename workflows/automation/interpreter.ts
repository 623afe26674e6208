import type { Definition, StepResult, StepSnapshot, TransitionSnapshot } from './definition';
import { COMPLETED, firstStep, stepById, type Next } from './entry';
import { stepType } from './steps';

/**
 * The step interpreter: given an execution's definition snapshot and what the current step came to, it
 * decides what runs next or how the execution ends. Pure (it reads only the results each step type may come
 * to, from steps/), so that the workflow is a thin driver around it and its rules are tested on their own.
 */

/** Whether `t` is the transition a step's result follows. */
function follows(t: TransitionSnapshot, result: StepResult): boolean {
  switch (result.kind) {
    case 'branch':
      return t.branch === result.branch;
    case 'event':
      return t.outcome === 'EVENT';
    case 'timeout':
      return t.outcome === 'TIMEOUT';
    case 'done':
      // Only types that simply finish come to done (nextStep checks), and their transitions are all plain.
      return true;
  }
}

/** An EXIT step's reason, or one naming the step. */
export function exitReason(step: Extract<StepSnapshot, { type: 'EXIT' }>): string {
  return step.config.reason?.trim() || `Reached EXIT step ${step.name ?? step.id}`;
}

/** What follows `step` now that it came to `result`. */
export function nextStep(definition: Definition, step: StepSnapshot, result: StepResult): Next {
  if (!stepType(step).results.includes(result.kind)) throw new Error(`a ${step.type} step cannot come to ${result.kind}`);
  if (step.type === 'EXIT') return { kind: 'end', status: 'EXITED', reason: exitReason(step) };
  const taken = definition.transitions.find((t) => t.fromStepId === step.id && follows(t, result));
  return taken ? { kind: 'step', step: stepById(definition, taken.toStepId) } : COMPLETED;
}

/**
 * Where an execution starting now first stops (a DELAY, a WAIT_FOR_EVENT, a WEBHOOK), when the quick steps before
 * it can only come to `done`, so nothing but a failure leads elsewhere: its CurrentStep from the start, which
 * spares the run an upsert of it (docs/automations.md "For operators"). Otherwise the entry step.
 */
export function firstStop(definition: Definition): string | null {
  const entry = firstStep(definition);
  let next = entry;
  while (next.kind === 'step') {
    const type = stepType(next.step);
    if (type.kind === 'stop') return next.step.id;
    if (type.results.some((r) => r !== 'done')) break;
    next = nextStep(definition, next.step, { kind: 'done' });
  }
  return entry.kind === 'step' ? entry.step.id : null;
}
