import { SPLIT_BRANCHES, type Branch } from '../definition';
import type { WorkflowStep } from './step';

export const randomSplit: WorkflowStep<'RANDOM_SPLIT'> = {
  results: ['branch'],
  detail: (config) => config.branches.map((b, i) => `${SPLIT_BRANCHES[i]} ${b.weight}`).join(' / '),
  // The branch is decided in advanceAutomation from the contact and the step, and recorded there: replays read it back.
  kind: 'quick',
  resultOf: (output) => ({ kind: 'branch', branch: output?.branch as Branch }),
};
