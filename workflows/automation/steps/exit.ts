import { finished, type WorkflowStep } from './step';

export const exit: WorkflowStep<'EXIT'> = {
  results: ['done'],
  detail: (config) => config.reason ?? '',
  // Nothing to do: the end's write records the step, and the interpreter ends the execution EXITED.
  kind: 'quick',
  resultOf: finished,
};
