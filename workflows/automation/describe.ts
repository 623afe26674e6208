import type { StepSnapshot } from './definition';

/** Words for an amount of seconds, in the largest unit that divides it: `2 days`, `90 minutes`, `45 seconds`. */
export function durationWords(seconds: number): string {
  const units: Array<[string, number]> = [['day', 86_400], ['hour', 3_600], ['minute', 60], ['second', 1]];
  const [unit, size] = units.find(([, s]) => seconds >= s && seconds % s === 0) ?? ['second', 1];
  const n = seconds / size;
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

function detail(step: StepSnapshot): string {
  switch (step.type) {
    case 'DELAY':
      return `${step.config.amount} ${step.config.amount === 1 ? step.config.unit.replace(/s$/, '') : step.config.unit}`;
    case 'WAIT_FOR_EVENT':
      return step.config.timeout === undefined
        ? step.config.eventName
        : `${step.config.eventName} (timeout ${durationWords(step.config.timeout)})`;
    case 'SEND_EMAIL':
      return `template ${step.config.templateId}`;
    case 'WEBHOOK':
      return `${step.config.method} ${step.config.url}`;
    case 'EXIT':
      return step.config.reason ?? '';
    case 'CONDITION':
    case 'UPDATE_CONTACT':
      return '';
  }
}

/** A step in words, e.g. `DELAY 2 days` or `"Nudge" WAIT_FOR_EVENT paid (timeout 2 days)`. */
export function describeStep(step: StepSnapshot): string {
  return [step.name ? JSON.stringify(step.name) : '', step.type, detail(step)].filter(Boolean).join(' ');
}

/** What the Temporal Web UI shows for an execution at its `n`-th step: `Welcome series: step 3, DELAY 2 days`. */
export const stepSummary = (automationName: string, n: number, step: StepSnapshot) =>
  `${automationName}: step ${n}, ${describeStep(step)}`;
