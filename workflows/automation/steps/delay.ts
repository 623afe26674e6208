import { sleep } from '@temporalio/workflow';
import { delayMs, delayUntil, type DelayConfig } from '../definition';
import { done, type WorkflowStep } from './step';

function words(config: DelayConfig): string {
  const until = delayUntil(config);
  const length =
    config.amount === undefined ? '' : `${config.amount} ${config.amount === 1 ? config.unit!.replace(/s$/, '') : config.unit}`;
  return until === null ? length : `${length ? `${length}, then ` : ''}until ${until} local time`;
}

export const delay: WorkflowStep<'DELAY'> = {
  results: ['done'],
  detail: words,
  kind: 'stop',
  waitingFor: () => null,
  localTime: delayUntil,
  async run(step, { summary, resumeAt }) {
    if (resumeAt === null) {
      await sleep(delayMs(step.config), { summary });
      return done();
    }
    // The instant advanceAutomation decided from the contact's zone (recorded in its result, so a replay takes the same).
    await sleep(Math.max(1, Date.parse(resumeAt) - Date.now()), { summary: `${summary} (${resumeAt})` });
    return done({ until: resumeAt });
  },
};
