import { condition, patched, proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { AutomationActivities } from '../../activities/automation';
import type { StepOf, StepSnapshot } from './definition';
import { delayMs, type StepResult } from './interpreter';
import type { Inbox } from './inbox';
import { ExecutionGoneSignal, type Mirror } from './mirror';

const STEP_RETRY = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 8 } as const;

/**
 * Database work of a step (everything but WEBHOOK): quick, so it runs as a local activity, in the worker that
 * holds the workflow task, without a round trip through the server per step; retried with backoff for about
 * four minutes, then the step fails.
 */
const stepActivities = (summary: string) =>
  proxyLocalActivities<AutomationActivities>({ startToCloseTimeout: '1 minute', retry: STEP_RETRY, summary });

/**
 * decisions.md: each WEBHOOK attempt gives up after 10 s; network errors and 5xx are retried with backoff.
 * A regular activity: it waits on a third party, so it must not hold the workflow task.
 */
const webhookActivities = (summary: string) =>
  proxyActivities<AutomationActivities>({
    startToCloseTimeout: '15 seconds',
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
    summary,
  });

/** Mirror writes run in the worker that holds the workflow task: no round trip through the server. */
export const { saveAutomationState } = proxyLocalActivities<AutomationActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '30 seconds' },
});

export interface StepRun {
  result: StepResult;
  output: Record<string, unknown> | null;
}

export interface StepEnv {
  executionId: string;
  mirror: Mirror;
  inbox: Inbox;
  summary: string;
}

const done = (output: Record<string, unknown> | null = null): StepRun => ({ result: { kind: 'done' }, output });

/**
 * Runs that reach a WAIT_FOR_EVENT after this patch write the step's start and its WAITING mark in one
 * statement (one local activity, one workflow activation less); earlier runs wrote the start on its own first.
 * Either way the look-back searches from the step's recorded start, after the mark has committed.
 */
const WAIT_IN_ONE_WRITE = 'automation-wait-in-one-write';

async function waitForEvent(step: StepOf<'WAIT_FOR_EVENT'>, env: StepEnv): Promise<StepRun> {
  const { mirror, inbox } = env;
  const { eventName, timeout } = step.config;
  if (!patched(WAIT_IN_ONE_WRITE)) await mirror.write();
  mirror.wait(eventName);
  const begun = await stepActivities(env.summary).beginAutomationWait({ state: mirror.state(), eventName, used: inbox.usedIds() });
  if (!begun) throw new ExecutionGoneSignal();
  let event = begun.event ?? inbox.find(eventName, begun.since);
  if (!event) {
    const arrived = () => (event = inbox.find(eventName, begun.since)) !== undefined;
    if (timeout === undefined) await condition(arrived);
    else await condition(arrived, timeout * 1000, { summary: env.summary });
  }
  if (!event) return { result: { kind: 'timeout' }, output: { timedOut: true } };
  inbox.take(event);
  // decisions.md: the event's data merges into the execution context.
  mirror.context = { ...mirror.context, ...event.data };
  return { result: { kind: 'event' }, output: { eventId: event.id, eventName: event.name, data: event.data } };
}

/**
 * Runs one step, just entered, and reports what it came to. All I/O goes through activities; a step's
 * activity writes the entered state itself before it acts, which saves a round of writing per step.
 */
export async function runStep(step: StepSnapshot, env: StepEnv): Promise<StepRun> {
  const { executionId, mirror, summary } = env;
  const input = () => ({ executionId, stepId: step.id, context: mirror.context, state: mirror.state() });
  switch (step.type) {
    case 'SEND_EMAIL':
      return done(await stepActivities(summary).sendAutomationEmail({ ...input(), config: step.config }));
    case 'DELAY':
      mirror.wait(null);
      await mirror.write();
      await sleep(delayMs(step.config), { summary });
      return done();
    case 'WAIT_FOR_EVENT':
      return waitForEvent(step, env);
    case 'CONDITION': {
      const { branch } = await stepActivities(summary).evaluateAutomationCondition({ ...input(), config: step.config });
      return { result: { kind: 'branch', branch }, output: { branch } };
    }
    case 'WEBHOOK':
      return done(await webhookActivities(summary).callAutomationWebhook({ ...input(), config: step.config }));
    case 'UPDATE_CONTACT': {
      const { variables, subscriptionChanged } = await stepActivities(summary).updateAutomationContact({ ...input(), config: step.config });
      mirror.context = { ...mirror.context, ...variables };
      return done({ subscriptionChanged });
    }
    case 'EXIT':
      // Nothing to do: the end's write records the step.
      return done();
  }
}
