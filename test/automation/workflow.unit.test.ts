import { randomBytes } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { AutomationActivities } from '../../activities/automation';
import type { Definition, StepSnapshot, TransitionSnapshot } from '../../workflows/automation/definition';
import type { LiveExecution, MirrorState } from '../../src/modules/automations/records';
import { advance, type AdvanceIo } from '../../src/modules/automations/run/advance';
import { StepFailed } from '../../src/modules/automations/run/errors';
import { randomSplitWork } from '../../activities/automation/random-split';
import {
  AUTOMATION_EVENT_SIGNAL,
  AUTOMATION_GOAL_SIGNAL,
  MIGRATE_VERSION_SIGNAL,
  PROJECT_REINSTATED_SIGNAL,
  STEP_FAILED,
  type AutomationInput,
  type VersionMigration,
} from '../../workflows/automation/ids';
import { stubActivityWorker } from '../helpers/temporal-env';

/**
 * The automation drivers with stub activities: the steps they run in what order, their timers, their waits
 * and how an execution ends, as the execution record would be told. `automationV2` (workflows/automation/
 * workflow.ts) runs its quick steps through the real advance (src/modules/automations/run/advance.ts) over a
 * stub record; `automation` (runs started before it, workflows/automation/legacy) calls one stub activity
 * per step. Both must come to the same. What the steps do in the database is the stack tests' concern
 * (executions.time-skipping.test.ts and others).
 */

const DAY = 24 * 60 * 60 * 1000;
const taskQueue = `automation-${randomBytes(4).toString('hex')}`;

interface Stub {
  /** The states the execution record was given, in order (saves and step entries alike). */
  states: MirrorState[];
  /** The step activities run, as `<activity>:<stepId>`, with the environment's time. */
  calls: Array<{ call: string; at: number; context: Record<string, unknown> }>;
  /** Resolves once the execution is waiting (a DELAY written, or a WAIT_FOR_EVENT begun). */
  waiting: Promise<void>;
}

interface StubOptions {
  branch?: 'yes' | 'no';
  /** The SEND_EMAIL step fails for good with this message. */
  sendFails?: string;
  /** The project's suspension as the send, then each later question, find it: a reason, or null once reinstated. */
  suspension?: Array<string | null>;
}

const stubs = new Map<string, Stub & StubOptions & { reachedWait: () => void }>();

function stubOf(executionId: string) {
  const stub = stubs.get(executionId);
  if (!stub) throw new Error(`no stub for execution ${executionId}`);
  return stub;
}

async function stepCall(state: MirrorState, call: string, context: Record<string, unknown>, record = true) {
  const stub = stubOf(state.executionId);
  if (record) stub.states.push(state);
  stub.calls.push({ call, at: await env().currentTimeMs(), context });
  return stub;
}

const live = (state: MirrorState): LiveExecution => ({
  execution: { id: state.executionId, projectId: 'p-1', automationId: 'a-1', contactId: 'c-1', entry: 1, stepStartedAt: new Date(0) },
  contact: { id: 'c-1', email: 'ada@example.test', subscribed: true, data: {} },
});

/** The stub record under the real advance: every write kept, each quick step's work a call of the stub. */
const stubIo: AdvanceIo = {
  async enter(state) {
    stubOf(state.executionId).states.push(state);
    return live(state);
  },
  async write(state) {
    const stub = stubOf(state.executionId);
    stub.states.push(state);
    if (state.status === 'WAITING') stub.reachedWait();
    return true;
  },
  written: async (executionId) => stubOf(executionId).states.at(-1) ?? null,
  works: {
    async SEND_EMAIL(s, { state, context }) {
      const stub = await stepCall(state, `send:${s.id}`, context, false);
      if (stub.sendFails) throw new StepFailed(stub.sendFails);
      return { output: { emailId: `email-${s.id}`, to: 'ada@example.test' }, held: stub.suspension?.shift() ?? null };
    },
    async CONDITION(s, { state, context }) {
      const stub = await stepCall(state, `condition:${s.id}`, context, false);
      return { output: { branch: stub.branch ?? 'yes' } };
    },
    async UPDATE_CONTACT(s, { state, context }) {
      await stepCall(state, `update:${s.id}`, context, false);
      return { output: { subscriptionChanged: null }, variables: {} };
    },
    EXIT: async () => ({ output: null }),
    RANDOM_SPLIT: randomSplitWork,
    DELAY: null,
    WAIT_FOR_EVENT: null,
    WEBHOOK: null,
  },
  timeZone: async () => 'UTC',
  zoneOf: async () => 'UTC',
  async lookBack(state, _live, eventName) {
    const stub = await stepCall(state, `wait:${state.currentStepId}:${eventName}`, state.context, false);
    stub.reachedWait();
    return { since: new Date(0).toISOString(), event: null };
  },
};

/** The activities of every execution of this file, each answering for the stub of its execution. */
const activities: AutomationActivities = {
  advanceAutomation: (input) => advance(stubIo, input),
  async adoptAutomationVersion({ executionId, definition }) {
    stubOf(executionId).calls.push({ call: `adopt:${definition.version}`, at: await env().currentTimeMs(), context: {} });
    return true;
  },
  async finishAutomation(state) {
    stubOf(state.executionId).states.push(state);
    return true;
  },
  async saveAutomationState(state) {
    const stub = stubOf(state.executionId);
    stub.states.push(state);
    if (state.status === 'WAITING') stub.reachedWait();
    return true;
  },
  async beginAutomationWait({ state, eventName }) {
    const stub = await stepCall(state, `wait:${state.currentStepId}:${eventName}`, state.context);
    stub.reachedWait();
    return { since: new Date(0).toISOString(), event: null };
  },
  async sendAutomationEmail(input) {
    const stub = await stepCall(input.state, `send:${input.stepId}`, input.context);
    if (stub.sendFails) throw ApplicationFailure.nonRetryable(stub.sendFails, STEP_FAILED);
    return { emailId: `email-${input.stepId}`, to: 'ada@example.test', held: stub.suspension?.shift() ?? null };
  },
  // Each execution of this file is its own project, so the question reaches its stub.
  async projectSuspension(projectId) {
    const stub = stubOf(projectId);
    stub.calls.push({ call: 'suspended?', at: await env().currentTimeMs(), context: {} });
    return stub.suspension?.shift() ?? null;
  },
  async evaluateAutomationCondition(input) {
    const stub = await stepCall(input.state, `condition:${input.stepId}`, input.context);
    return { branch: stub.branch ?? 'yes' };
  },
  async callAutomationWebhook(input) {
    await stepCall(input.state, `webhook:${input.stepId}`, input.context);
    return { status: 200, body: null, url: input.config.url };
  },
  async updateAutomationContact(input) {
    await stepCall(input.state, `update:${input.stepId}`, input.context);
    return { variables: {}, subscriptionChanged: null };
  },
};

const env = stubActivityWorker(taskQueue, activities);

const step = (id: string, type: StepSnapshot['type'], config: object = {}) => ({ id, name: null, type, config }) as StepSnapshot;
const edge = (fromStepId: string, toStepId: string, extra: Partial<TransitionSnapshot> = {}): TransitionSnapshot => ({
  fromStepId,
  toStepId,
  branch: null,
  outcome: null,
  ...extra,
});

describe.each(['automationV2', 'automation'])('%s', (workflowType) => {
  /** Starts an execution of `definition` with its own stub; `result()` lets time skip until it ends. */
  async function start(definition: Omit<Definition, 'name'>, options: StubOptions = {}) {
    const executionId = `x-${randomBytes(4).toString('hex')}`;
    let reachedWait = () => {};
    const waiting = new Promise<void>((resolve) => (reachedWait = resolve));
    const stub: Stub & StubOptions & { reachedWait: () => void } = { states: [], calls: [], waiting, reachedWait, ...options };
    stubs.set(executionId, stub);
    const input: AutomationInput = {
      executionId,
      projectId: executionId,
      automationId: 'a-1',
      contactId: 'c-1',
      definition: { name: 'Welcome series', ...definition },
      context: { email: 'ada@example.test' },
    };
    const startedAt = await env().currentTimeMs();
    const handle = await env().client.workflow.start(workflowType, {
      taskQueue,
      workflowId: `automation:${executionId}`,
      args: [input],
    });
    return { handle, stub: stub as Stub, startedAt, last: (): MirrorState => stub.states[stub.states.length - 1]! };
  }

  const callsOf = (stub: Stub) => stub.calls.map((c) => c.call);

  describe('automation workflow: DELAY', () => {
    it('waits on a durable timer, recorded as WAITING, then runs the next step', async () => {
      const { handle, stub, startedAt, last } = await start({
        steps: [step('pause', 'DELAY', { amount: 3, unit: 'days' }), step('hello', 'SEND_EMAIL', { templateId: 't-1' })],
        transitions: [edge('pause', 'hello')],
      });
      expect(await handle.result()).toEqual({ status: 'COMPLETED', steps: 2 });

      expect(callsOf(stub)).toEqual(['send:hello']);
      const sentAt = stub.calls[0]!.at;
      expect(sentAt).toBeGreaterThanOrEqual(startedAt + 3 * DAY);
      expect(sentAt).toBeLessThan(startedAt + 4 * DAY);
      expect(stub.states.find((s) => s.status === 'WAITING')).toMatchObject({ currentStepId: 'pause', waitingFor: null, ended: false });
      expect(last()).toMatchObject({ status: 'COMPLETED', ended: true, currentStepId: null });
      expect(last().history.map((h) => [h.stepId, h.status])).toEqual([
        ['pause', 'COMPLETED'],
        ['hello', 'COMPLETED'],
      ]);
    });
  });

  describe('automation workflow: WAIT_FOR_EVENT', () => {
    /** wait(paid, 1 day) ─EVENT→ thanks; └TIMEOUT→ nudge */
    const waitForPaid = {
      steps: [
        step('wait', 'WAIT_FOR_EVENT', { eventName: 'paid', timeout: 86_400 }),
        step('thanks', 'SEND_EMAIL', { templateId: 't-1' }),
        step('nudge', 'SEND_EMAIL', { templateId: 't-2' }),
      ],
      transitions: [edge('wait', 'thanks', { outcome: 'EVENT' }), edge('wait', 'nudge', { outcome: 'TIMEOUT' })],
    };

    it('follows EVENT when the event is signalled within the timeout, its data merged into the context', async () => {
      const { handle, stub, startedAt, last } = await start(waitForPaid);
      await stub.waiting;
      const createdAt = new Date(await env().currentTimeMs()).toISOString();
      await handle.signal(AUTOMATION_EVENT_SIGNAL, { id: 'e-0', name: 'browsed', data: {}, createdAt });
      await handle.signal(AUTOMATION_EVENT_SIGNAL, { id: 'e-1', name: 'paid', data: { plan: 'pro' }, createdAt });
      expect(await handle.result()).toEqual({ status: 'COMPLETED', steps: 2 });

      expect(callsOf(stub)).toEqual(['wait:wait:paid', 'send:thanks']);
      expect(stub.calls[1]!.context).toMatchObject({ email: 'ada@example.test', plan: 'pro' });
      expect(stub.calls[1]!.at).toBeLessThan(startedAt + DAY);
      expect(last().history[0]).toMatchObject({
        stepId: 'wait',
        status: 'COMPLETED',
        output: { eventId: 'e-1', eventName: 'paid', data: { plan: 'pro' } },
      });
    });

    it('follows TIMEOUT when no such event comes before the timeout', async () => {
      const { handle, stub, startedAt, last } = await start(waitForPaid);
      expect(await handle.result()).toEqual({ status: 'COMPLETED', steps: 2 });

      expect(callsOf(stub)).toEqual(['wait:wait:paid', 'send:nudge']);
      expect(stub.calls[1]!.at).toBeGreaterThanOrEqual(startedAt + DAY);
      expect(last().history[0]).toMatchObject({ stepId: 'wait', status: 'COMPLETED', output: { timedOut: true } });
    });
  });

  describe('automation workflow: moving to another version', () => {
    const v1 = {
      version: 1,
      steps: [step('wait', 'WAIT_FOR_EVENT', { eventName: 'paid', timeout: 86_400 }), step('nudge', 'SEND_EMAIL', { templateId: 't-1' })],
      transitions: [edge('wait', 'nudge', { outcome: 'TIMEOUT' })],
    };
    const v2: Definition = {
      name: 'Welcome series',
      version: 2,
      steps: [step('wait', 'WAIT_FOR_EVENT', { eventName: 'paid', timeout: 86_400 }), step('hello', 'SEND_EMAIL', { templateId: 't-2' })],
      transitions: [edge('wait', 'hello', { outcome: 'TIMEOUT' })],
    };

    it('leaves the wait for the mapped step of the new version; a migration naming another step is ignored', async () => {
      const { handle, stub, startedAt, last } = await start(v1);
      await stub.waiting;
      const stale: VersionMigration = { definition: v2, fromStepId: 'elsewhere', toStepId: 'hello' };
      await handle.signal(MIGRATE_VERSION_SIGNAL, stale);
      await handle.signal(MIGRATE_VERSION_SIGNAL, { definition: v2, fromStepId: 'wait', toStepId: 'hello' });
      expect(await handle.result()).toEqual({ status: 'COMPLETED', steps: 2 });
      if (workflowType === 'automation') {
        // Runs of the old workflow type never heard of versions: they wait their timeout out on their own definition.
        expect(callsOf(stub)).toEqual(['wait:wait:paid', 'send:nudge']);
        return;
      }
      expect(callsOf(stub)).toEqual(['wait:wait:paid', 'adopt:2', 'send:hello']);
      expect(stub.calls[2]!.at).toBeLessThan(startedAt + DAY);
      expect(last().history.map((h) => [h.stepId, h.status, h.output])).toEqual([
        ['wait', 'COMPLETED', { migrated: { version: 2, toStepId: 'hello' } }],
        ['hello', 'COMPLETED', { emailId: 'email-hello', to: 'ada@example.test' }],
      ]);
    });
  });

  // Quiet hours are a step of automationV2's advance; the workflow type automation has none.
  if (workflowType === 'automationV2') {
    it('moves an email waiting out its quiet hours to the new version, which sends at once', async () => {
      const now = await env().currentTimeMs();
      const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
      const quietHours = { from: hhmm(now - 60 * 60_000), to: hhmm(now + 2 * 60 * 60_000) };
      const { handle, stub, last } = await start({
        version: 1,
        steps: [step('hello', 'SEND_EMAIL', { templateId: 't-1', quietHours })],
        transitions: [],
      });
      await stub.waiting;
      expect(last()).toMatchObject({ status: 'WAITING', currentStepId: 'hello' });
      const v2: Definition = {
        name: 'Welcome series',
        version: 2,
        steps: [step('hi', 'SEND_EMAIL', { templateId: 't-2' })],
        transitions: [],
      };
      await handle.signal(MIGRATE_VERSION_SIGNAL, { definition: v2, fromStepId: 'hello', toStepId: 'hi' });
      expect(await handle.result()).toEqual({ status: 'COMPLETED', steps: 2 });
      expect(callsOf(stub)).toEqual(['adopt:2', 'send:hi']);
      expect(stub.calls[1]!.at).toBeLessThan(now + 60 * 60_000);
      expect(last().history.map((h) => [h.stepId, h.status, h.output])).toEqual([
        ['hello', 'COMPLETED', { migrated: { version: 2, toStepId: 'hi' } }],
        ['hi', 'COMPLETED', { emailId: 'email-hi', to: 'ada@example.test' }],
      ]);
    });
  }

  describe('automation workflow: CONDITION and EXIT', () => {
    /** check ─yes→ thanks; └no→ bye (EXIT) */
    const check = {
      steps: [
        step('check', 'CONDITION', { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] }),
        step('thanks', 'SEND_EMAIL', { templateId: 't-1' }),
        step('bye', 'EXIT', { reason: 'not a pro' }),
      ],
      transitions: [edge('check', 'thanks', { branch: 'yes' }), edge('check', 'bye', { branch: 'no' })],
    };

    it('takes the yes branch to its step', async () => {
      const { handle, stub, last } = await start(check, { branch: 'yes' });
      expect(await handle.result()).toEqual({ status: 'COMPLETED', steps: 2 });
      expect(callsOf(stub)).toEqual(['condition:check', 'send:thanks']);
      expect(last().history[0]).toMatchObject({ stepId: 'check', output: { branch: 'yes' } });
    });

    it('takes the no branch to EXIT, which ends the execution EXITED with its reason', async () => {
      const { handle, stub, last } = await start(check, { branch: 'no' });
      expect(await handle.result()).toEqual({ status: 'EXITED', steps: 2 });
      expect(callsOf(stub)).toEqual(['condition:check']);
      expect(last()).toMatchObject({ status: 'EXITED', exitReason: 'not a pro', ended: true });
      expect(last().history.map((h) => [h.stepId, h.status])).toEqual([
        ['check', 'COMPLETED'],
        ['bye', 'COMPLETED'],
      ]);
    });
  });

  describe('automation workflow: how an execution stops early', () => {
    const twoSends = {
      steps: [step('hello', 'SEND_EMAIL', { templateId: 't-1' }), step('again', 'SEND_EMAIL', { templateId: 't-2' })],
      transitions: [edge('hello', 'again')],
    };

    it('a step that fails for good marks the execution FAILED with its message, runs nothing after it and fails the run', async () => {
      const { handle, stub, last } = await start(twoSends, { sendFails: 'template t-1 is gone' });
      const failure = await handle.result().then(
        () => null,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(WorkflowFailedError);
      expect((failure as WorkflowFailedError).cause).toMatchObject({ type: STEP_FAILED, message: 'Step 1 failed: template t-1 is gone' });
      expect(callsOf(stub)).toEqual(['send:hello']);
      expect(last()).toMatchObject({ status: 'FAILED', error: 'template t-1 is gone', ended: true });
      expect(last().history).toEqual([expect.objectContaining({ stepId: 'hello', status: 'FAILED', error: 'template t-1 is gone' })]);
    });

    it('a cancelled run marks the execution CANCELLED where it waited and runs nothing after it', async () => {
      const { handle, stub, last } = await start({
        steps: [step('pause', 'DELAY', { amount: 3, unit: 'days' }), step('hello', 'SEND_EMAIL', { templateId: 't-1' })],
        transitions: [edge('pause', 'hello')],
      });
      await stub.waiting;
      await handle.cancel();
      const failure = await handle.result().then(
        () => null,
        (err: unknown) => err,
      );
      expect((failure as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
      expect(callsOf(stub)).toEqual([]);
      expect(last()).toMatchObject({ status: 'CANCELLED', ended: true });
      expect(last().history).toEqual([expect.objectContaining({ stepId: 'pause', status: 'CANCELLED' })]);
    });
  });

  describe('automation workflow: a SEND_EMAIL step while its project is suspended', () => {
    const twoSends = {
      steps: [step('hello', 'SEND_EMAIL', { templateId: 't-1' }), step('again', 'SEND_EMAIL', { templateId: 't-2' })],
      transitions: [edge('hello', 'again')],
    };
    const reason = 'Bounce rate 12.5% over 7 days is above the critical level of 10%';
    const detailsOf = async (handle: { query: (name: string) => Promise<unknown> }) =>
      ((await handle.query('__temporal_workflow_metadata')) as { currentDetails?: string }).currentDetails ?? '';

    it('waits after queueing its email, says why in the current details, and goes on when the reinstatement is signalled', async () => {
      const { handle, stub, startedAt, last } = await start(twoSends, { suspension: [reason, null] });
      let details = '';
      for (const deadline = Date.now() + 60_000; !details.includes('held') && Date.now() < deadline;) {
        await new Promise((r) => setTimeout(r, 50));
        details = await detailsOf(handle);
      }
      expect(details).toBe(
        `Welcome series: step 1, SEND_EMAIL template t-1: held, the project is suspended (${reason}); the email goes once it is reinstated`,
      );
      expect(callsOf(stub)).toEqual(['send:hello']);
      expect(last()).toMatchObject({ currentStepId: 'hello', status: 'RUNNING' });

      await handle.signal(PROJECT_REINSTATED_SIGNAL);
      expect(await handle.result()).toEqual({ status: 'COMPLETED', steps: 2 });
      expect(callsOf(stub)).toEqual(['send:hello', 'suspended?', 'send:again']);
      // The signal, not the recheck, let it go on.
      expect(stub.calls[1]!.at - startedAt).toBeLessThan(10 * 60_000);
      expect(last().history.map((h) => [h.stepId, h.status, h.output])).toEqual([
        ['hello', 'COMPLETED', { emailId: 'email-hello', to: 'ada@example.test' }],
        ['again', 'COMPLETED', { emailId: 'email-again', to: 'ada@example.test' }],
      ]);
    });

    it('asks again every 10 minutes when no signal comes, and goes on once the project is active', async () => {
      const { handle, stub, startedAt } = await start(twoSends, { suspension: [reason, reason, null] });
      expect(await handle.result()).toEqual({ status: 'COMPLETED', steps: 2 });
      expect(callsOf(stub)).toEqual(['send:hello', 'suspended?', 'suspended?', 'send:again']);
      expect(stub.calls[1]!.at - startedAt).toBeGreaterThanOrEqual(10 * 60_000);
      expect(stub.calls[2]!.at - startedAt).toBeGreaterThanOrEqual(20 * 60_000);
      expect(stub.calls[2]!.at - startedAt).toBeLessThan(21 * 60_000);
    });

    it('does not wait when the project is active', async () => {
      const { handle, stub } = await start(twoSends);
      expect(await handle.result()).toEqual({ status: 'COMPLETED', steps: 2 });
      expect(callsOf(stub)).toEqual(['send:hello', 'send:again']);
    });
  });

  // Goals exist in automationV2 only: runs of `automation` were started before them.
  if (workflowType === 'automationV2')
    describe('automation workflow: a goal', () => {
      const purchase = (at: number, id = 'g-1') => ({ id, name: 'purchase', data: { amount: 30 }, createdAt: new Date(at).toISOString() });
      const reason = 'Bounce rate 12.5% over 7 days is above the critical level of 10%';

      it('ends the run CONVERTED in a WAIT_FOR_EVENT for the same event, before the wait could take it', async () => {
        const { handle, stub, last } = await start({
          steps: [step('wait', 'WAIT_FOR_EVENT', { eventName: 'purchase' }), step('thanks', 'SEND_EMAIL', { templateId: 't-1' })],
          transitions: [edge('wait', 'thanks', { outcome: 'EVENT' })],
          goal: { event: 'purchase' },
        });
        await stub.waiting;
        const at = await env().currentTimeMs();
        await handle.signal(AUTOMATION_GOAL_SIGNAL, purchase(at));
        await handle.signal(AUTOMATION_EVENT_SIGNAL, purchase(at));
        expect(await handle.result()).toEqual({ status: 'CONVERTED', steps: 1 });
        expect(callsOf(stub)).toEqual(['wait:wait:purchase']);
        expect(last()).toMatchObject({ status: 'CONVERTED', ended: true, currentStepId: 'wait', waitingFor: null });
        expect(last().history).toEqual([
          expect.objectContaining({
            stepId: 'wait',
            status: 'CONVERTED',
            output: { goal: { eventId: 'g-1', eventName: 'purchase', data: { amount: 30 } } },
          }),
        ]);
      });

      it('ends a SEND_EMAIL held by its suspension, so the step after it never runs', async () => {
        const { handle, stub, last } = await start(
          {
            steps: [step('hello', 'SEND_EMAIL', { templateId: 't-1' }), step('again', 'SEND_EMAIL', { templateId: 't-2' })],
            transitions: [edge('hello', 'again')],
            goal: { event: 'purchase' },
          },
          { suspension: [reason, null] },
        );
        for (const deadline = Date.now() + 60_000; last()?.currentStepId !== 'hello' || stub.calls.length === 0;) {
          if (Date.now() > deadline) throw new Error('the send was not held');
          await new Promise((r) => setTimeout(r, 50));
        }
        await handle.signal(AUTOMATION_GOAL_SIGNAL, purchase(await env().currentTimeMs()));
        expect(await handle.result()).toEqual({ status: 'CONVERTED', steps: 1 });
        expect(callsOf(stub)).toEqual(['send:hello']);
        expect(last().history.map((h) => [h.stepId, h.status])).toEqual([['hello', 'CONVERTED']]);
      });

      it('ignores the goal past its window, and in a run without a goal', async () => {
        const delayed = {
          steps: [step('pause', 'DELAY', { amount: 1, unit: 'days' }), step('hello', 'SEND_EMAIL', { templateId: 't-1' })],
          transitions: [edge('pause', 'hello')],
        };
        const late = await start({ ...delayed, goal: { event: 'purchase', window: { amount: 1, unit: 'hours' } } });
        const none = await start(delayed);
        await Promise.all([late.stub.waiting, none.stub.waiting]);
        await env().sleep(2 * 60 * 60_000);
        const at = await env().currentTimeMs();
        await late.handle.signal(AUTOMATION_GOAL_SIGNAL, purchase(at));
        await none.handle.signal(AUTOMATION_GOAL_SIGNAL, purchase(at));
        expect(await late.handle.result()).toEqual({ status: 'COMPLETED', steps: 2 });
        expect(await none.handle.result()).toEqual({ status: 'COMPLETED', steps: 2 });
        expect(callsOf(late.stub)).toEqual(['send:hello']);
        expect(callsOf(none.stub)).toEqual(['send:hello']);
      });
    });
});
