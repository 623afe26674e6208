import type { Branch } from '../definition';
import type { WorkflowStep } from './step';

export const conditionStep: WorkflowStep<'CONDITION'> = {
  results: ['branch'],
  detail: () => '',
  kind: 'quick',
  resultOf: (output) => ({ kind: 'branch', branch: output?.branch as Branch }),
};
