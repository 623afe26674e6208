import { sleep } from '@temporalio/workflow';
import type { DelayConfig } from '../definition';
import { done, type WorkflowStep } from './step';

const UNIT_MS: Record<DelayConfig['unit'], number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

export const delayMs = (config: DelayConfig) => config.amount * UNIT_MS[config.unit];

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
