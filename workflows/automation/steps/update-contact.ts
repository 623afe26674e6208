import { finished, type WorkflowStep } from './step';

export const updateContact: WorkflowStep<'UPDATE_CONTACT'> = {
  results: ['done'],
  detail: () => '',
  kind: 'quick',
  resultOf: finished,
};
