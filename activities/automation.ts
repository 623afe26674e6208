import { ApplicationFailure } from '@temporalio/activity';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../src/deps';
import type { SendEmailConfig, UpdateContactConfig, WebhookConfig } from '../workflows/automation/definition';
import type { FilterTree } from '../src/modules/filters/schemas';
import { writeAndRead, writeMirror, type MirrorState } from '../src/modules/automations/records';
import { evaluateCondition } from '../src/modules/automations/run/condition';
import { ExecutionGone, StepFailed } from '../src/modules/automations/run/errors';
import { sendStepEmail } from '../src/modules/automations/run/send-email';
import { applyContactUpdate } from '../src/modules/automations/run/update-contact';
import { firstEventSince } from '../src/modules/automations/run/wait';
import { callWebhook } from '../src/modules/automations/run/webhook';
import { EXECUTION_GONE, STEP_FAILED, type AutomationEvent } from '../workflows/automation/ids';

/** Domain failures become non-retryable activity failures; anything else is retried by Temporal. */
async function asActivity<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ExecutionGone) throw ApplicationFailure.nonRetryable(err.message, EXECUTION_GONE);
    if (err instanceof StepFailed) throw ApplicationFailure.nonRetryable(err.message, STEP_FAILED);
    throw err;
  }
}

interface StepInput<C> {
  executionId: string;
  stepId: string;
  config: C;
  context: Record<string, unknown>;
  /** The execution's state on entering the step, written before the step acts. */
  state: MirrorState;
}

export function createAutomationActivities(deps: Deps) {
  /** Records the step's entry and reads the execution back: a step acts only for one still active. */
  async function enter(em: EntityManager, state: MirrorState) {
    const live = await writeAndRead(em, state);
    if (!live) throw new ExecutionGone(state.executionId);
    return live;
  }

  return {
    /** The workflow's state, mirrored into the execution record (a local activity). False: nothing left to do. */
    async saveAutomationState(state: MirrorState): Promise<boolean> {
      return writeMirror(deps.orm.em.fork(), state);
    },

    /**
     * WAIT_FOR_EVENT: marks the execution WAITING for the event (committed first, so the outbox consumer
     * signals from then on), then looks back for one tracked since the step began.
     */
    async beginAutomationWait(input: { state: MirrorState; eventName: string; used: string[] }): Promise<{ since: string; event: AutomationEvent | null } | null> {
      const em = deps.orm.em.fork();
      const live = await writeAndRead(em, input.state);
      if (!live) return null;
      const { contactId, stepStartedAt } = live.execution;
      const event = await firstEventSince(em, contactId, input.eventName, stepStartedAt, input.used);
      return { since: stepStartedAt.toISOString(), event };
    },

    async sendAutomationEmail(input: StepInput<SendEmailConfig>) {
      return asActivity(async () => {
        const em = deps.orm.em.fork();
        return sendStepEmail(deps.config, em, await enter(em, input.state), { id: input.stepId, config: input.config }, input.context);
      });
    },

    async evaluateAutomationCondition(input: StepInput<FilterTree>) {
      return asActivity(async () => {
        const em = deps.orm.em.fork();
        return evaluateCondition(em, await enter(em, input.state), input.config, input.context);
      });
    },

    async callAutomationWebhook(input: StepInput<WebhookConfig>) {
      return asActivity(async () => {
        const live = await enter(deps.orm.em.fork(), input.state);
        const res = await callWebhook(deps, live, { id: input.stepId, config: input.config }, input.context);
        return { status: res.status, body: res.body, url: res.url };
      });
    },

    async updateAutomationContact(input: StepInput<UpdateContactConfig>) {
      return asActivity(async () => {
        const em = deps.orm.em.fork();
        return applyContactUpdate(em, await enter(em, input.state), input.config);
      });
    },
  };
}

export type AutomationActivities = ReturnType<typeof createAutomationActivities>;
