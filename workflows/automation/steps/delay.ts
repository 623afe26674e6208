import { sleep } from '@temporalio/workflow';
import { delayMs } from '../definition';
import { done, type WorkflowStep } from './step';

export const delay: WorkflowStep<'DELAY'> = {
  results: ['done'],
  detail: (config) => `${config.amount} ${config.amount === 1 ? config.unit.replace(/s$/, '') : config.unit}`,
  async run(step, { mirror, summary }) {
    mirror.wait(null);
    await mirror.write();
    await sleep(delayMs(step.config), { summary });
    return done();
  },
};
