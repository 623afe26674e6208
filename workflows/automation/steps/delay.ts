import { sleep } from '@temporalio/workflow';
import { delayMs } from '../definition';
import { done, type WorkflowStep } from './step';

export const delay: WorkflowStep<'DELAY'> = {
  results: ['done'],
  detail: (config) => `${config.amount} ${config.amount === 1 ? config.unit.replace(/s$/, '') : config.unit}`,
  kind: 'stop',
  waitingFor: () => null,
  async run(step, { summary }) {
    await sleep(delayMs(step.config), { summary });
    return done();
  },
};
