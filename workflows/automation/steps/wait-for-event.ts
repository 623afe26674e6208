import { condition, patched } from '@temporalio/workflow';
import type { AutomationEvent } from '../ids';
import { ExecutionGoneSignal } from '../mirror';
import { stepActivities } from './activities';
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
 * Runs that reach a WAIT_FOR_EVENT after this patch write the step's start and its WAITING mark in one
 * statement (one local activity, one workflow activation less); earlier runs wrote the start on its own first.
 * Either way the look-back searches from the step's recorded start, after the mark has committed.
 */
const WAIT_IN_ONE_WRITE = 'automation-wait-in-one-write';

export const waitForEvent: WorkflowStep<'WAIT_FOR_EVENT'> = {
  results: ['event', 'timeout'],
  detail: ({ eventName, timeout }) => (timeout === undefined ? eventName : `${eventName} (timeout ${durationWords(timeout)})`),
  async run(step, env) {
    const { mirror, inbox } = env;
    const { eventName, timeout } = step.config;
    if (!patched(WAIT_IN_ONE_WRITE)) await mirror.write();
    mirror.wait(eventName);
    const begun = await stepActivities(env.summary).beginAutomationWait({ state: mirror.state(), eventName, used: inbox.usedIds() });
    if (!begun) throw new ExecutionGoneSignal();
    let event: AutomationEvent | undefined = begun.event ?? inbox.find(eventName, begun.since);
    if (!event) {
      const arrived = () => (event = inbox.find(eventName, begun.since)) !== undefined;
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
