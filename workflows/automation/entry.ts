import type { Definition, StepSnapshot } from './definition';
import { rootsOf } from './graph';

/**
 * Where an execution goes: a step, or its end. The entry step is decided here, apart from the interpreter,
 * so that the API (which records the entry step when an execution starts) needs no step type's run.
 */

export type Next =
  | { kind: 'step'; step: StepSnapshot }
  /** No transition matches (or the last step was reached): the execution completes (docs/automations.md "Running"). */
  | { kind: 'end'; status: 'COMPLETED' }
  | { kind: 'end'; status: 'EXITED'; reason: string };

export const COMPLETED: Next = { kind: 'end', status: 'COMPLETED' };

export function stepById(definition: Definition, id: string): StepSnapshot {
  const step = definition.steps.find((s) => s.id === id);
  if (!step) throw new Error(`step ${id} is not in the definition`);
  return step;
}

/** The entry step: the one step no transition enters. A definition without steps completes at once. */
export function firstStep(definition: Definition): Next {
  const [root, ...others] = rootsOf(definition.steps, definition.transitions);
  if (others.length) throw new Error('the definition has more than one entry step');
  return root ? { kind: 'step', step: stepById(definition, root.id) } : COMPLETED;
}
