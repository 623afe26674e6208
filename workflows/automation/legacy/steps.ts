import { condition, patched, proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { AutomationActivities } from '../../../activities/automation';
import { delayMs, type StepOf, type StepSnapshot } from '../definition';
import type { AutomationEvent } from '../ids';
import { HOLD_PATCH, type Hold } from '../hold';
import type { Inbox } from '../inbox';
import { ExecutionGoneSignal, type Mirror } from '../mirror';
import type { StepRun } from '../steps/step';

/**
 * How runs started as the workflow type `automation` (before `automationV2`, docs/automations.md "Versions")
 * run each step: one local activity per step, each writing the step's entry before it acts. Frozen: these runs
 * replay their recorded histories through this code, so it must issue the same commands in the same order.
 * Its activities stay registered for as long as such runs may be in flight.
 */

export interface LegacyEnv {
  executionId: string;
  projectId: string;
  mirror: Mirror;
  inbox: Inbox;
  /** Where a SEND_EMAIL step waits while its project is suspended. */
  hold: Hold;
  summary: string;
}

const STEP_RETRY = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 8 } as const;

const stepActivities = (summary: string) =>
  proxyLocalActivities<AutomationActivities>({ startToCloseTimeout: '1 minute', retry: STEP_RETRY, summary });

export const { saveAutomationState } = proxyLocalActivities<AutomationActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '30 seconds' },
});

const webhookActivities = (summary: string) =>
  proxyActivities<AutomationActivities>({
    startToCloseTimeout: '15 seconds',
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
    summary,
  });

const done = (output: Record<string, unknown> | null = null): StepRun => ({ result: { kind: 'done' }, output });

const stepInput = <T extends LegacyStepType>(step: StepOf<T>, env: LegacyEnv) => ({
  executionId: env.executionId,
  stepId: step.id,
  context: env.mirror.context,
  state: env.mirror.state(),
  config: step.config,
});

/** Runs that reached a WAIT_FOR_EVENT after this patch wrote the step's start and its WAITING mark at once. */
const WAIT_IN_ONE_WRITE = 'automation-wait-in-one-write';

/** The step types there were when `automationV2` came: legacy runs hold no other. */
type LegacyStepType = 'SEND_EMAIL' | 'DELAY' | 'WAIT_FOR_EVENT' | 'CONDITION' | 'WEBHOOK' | 'UPDATE_CONTACT' | 'EXIT';

const LEGACY_RUNS: { [T in LegacyStepType]: (step: StepOf<T>, env: LegacyEnv) => Promise<StepRun> } = {
  async SEND_EMAIL(step, env) {
    const activities = stepActivities(env.summary);
    const { held, ...sent } = await activities.sendAutomationEmail(stepInput(step, env));
    // Runs recorded before holds existed never got `held`, so they replay as they ran.
    if (held && patched(HOLD_PATCH)) {
      await env.hold.whileSuspended(env.summary, held, () => activities.projectSuspension(env.projectId));
    }
    return done(sent);
  },
  async DELAY(step, { mirror, summary }) {
    mirror.wait(null);
    await mirror.write();
    await sleep(delayMs(step.config), { summary });
    return done();
  },
  async WAIT_FOR_EVENT(step, env) {
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
    mirror.context = { ...mirror.context, ...event.data };
    return { result: { kind: 'event' }, output: { eventId: event.id, eventName: event.name, data: event.data } };
  },
  async CONDITION(step, env) {
    const { branch } = await stepActivities(env.summary).evaluateAutomationCondition(stepInput(step, env));
    return { result: { kind: 'branch', branch }, output: { branch } };
  },
  WEBHOOK: async (step, env) => done(await webhookActivities(env.summary).callAutomationWebhook(stepInput(step, env))),
  async UPDATE_CONTACT(step, env) {
    const { variables, subscriptionChanged } = await stepActivities(env.summary).updateAutomationContact(stepInput(step, env));
    env.mirror.context = { ...env.mirror.context, ...variables };
    return done({ subscriptionChanged });
  },
  EXIT: async () => done(),
};

export function runLegacyStep(step: StepSnapshot, env: LegacyEnv): Promise<StepRun> {
  const run = LEGACY_RUNS[step.type as LegacyStepType] as ((step: StepSnapshot, env: LegacyEnv) => Promise<StepRun>) | undefined;
  if (!run) throw new Error(`a run started as automation has no ${step.type} step`);
  return run(step, env);
}
