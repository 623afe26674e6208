import { condition } from '@temporalio/workflow';
import type { AutomationEvent } from '../ids';
import type { WorkflowStep } from './step';

/** Words for an amount of seconds, in the largest unit that divides it: `2 days`, `90 minutes`, `45 seconds`. */
export function durationWords(seconds: number): string {
  const units: Array<[string, number]> = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
    ['second', 1],
  ];
  const [unit, size] = units.find(([, s]) => seconds >= s && seconds % s === 0) ?? ['second', 1];
  const n = seconds / size;
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/**
 * advanceAutomation has marked the execution WAITING for the event (committed first, so the outbox signals
 * from then on) and looked back for one tracked since the step began; a later one arrives as a signal. Events
 * signalled earlier wait in the run's inbox, and each event is taken at most once.
 */
export const waitForEvent: WorkflowStep<'WAIT_FOR_EVENT'> = {
  results: ['event', 'timeout'],
  detail: ({ eventName, timeout }) => (timeout === undefined ? eventName : `${eventName} (timeout ${durationWords(timeout)})`),
  kind: 'stop',
  waitingFor: (config) => config.eventName,
  async run(step, env) {
    const { mirror, inbox, lookBack } = env;
    const { eventName, timeout } = step.config;
    const since = lookBack?.since ?? new Date(0).toISOString();
    let event: AutomationEvent | undefined = lookBack?.event ?? inbox.find(eventName, since);
    if (!event) {
      const arrived = () => (event = inbox.find(eventName, since)) !== undefined;
      if (timeout === undefined) await condition(arrived);
      else await condition(arrived, timeout * 1000, { summary: env.summary });
    }
    if (!event) return { result: { kind: 'timeout' }, output: { timedOut: true } };
    inbox.take(event);
    // docs/automations.md "Step types": the event's data merges into the execution context.
    mirror.context = { ...mirror.context, ...event.data };
    return { result: { kind: 'event' }, output: { eventId: event.id, eventName: event.name, data: event.data } };
  },
};
