import {
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { AutomationActivities } from '../../activities/automation';
import { stepSummary } from './describe';
import { firstStep, stepById, type Next } from './entry';
import { automationEvent, automationGoal, failureMessage, isGone, migrateVersion, projectReinstated } from './failures';
import { watchGoal } from './goal';
import { Hold } from './hold';
import { STEP_FAILED, type AutomationInput, type AutomationResult, type VersionMigration } from './ids';
import { Migrations, type Rest } from './migration';
import { Inbox } from './inbox';
import { nextStep } from './interpreter';
import { ExecutionGoneSignal, Mirror } from './mirror';
import { AutomationIdKey, CurrentStepKey } from '../search-attributes';
import { runStop, stepType, stopOf } from './steps';
import type { LookBack, QuickStep, StepRun } from './steps/step';
import type { Definition } from './definition';

const STEP_RETRY = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 8 } as const;

/**
 * The quick steps' database work runs as a local activity, in the worker that holds the workflow task, without
 * a round trip through the server; retried with backoff for about four minutes, then the step fails.
 */
const advancing = (summary: string) =>
  proxyLocalActivities<AutomationActivities>({ startToCloseTimeout: '1 minute', retry: STEP_RETRY, summary });

const { finishAutomation, projectSuspension } = proxyLocalActivities<AutomationActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '30 seconds' },
});

/** A step failure advanceAutomation has already recorded with the execution. */
class RecordedFailure extends Error {}

/**
 * CurrentStep moves where the execution stops (a wait, a webhook): Temporal's visibility store sees a run only
 * between workflow tasks, so the quick steps passed inside one are not worth a write of it. Only runs started
 * with search attributes (not on the time-skipping test server) have it.
 */
function showCurrentStep(stepId: string): void {
  const attributes = workflowInfo().typedSearchAttributes;
  if (attributes.get(AutomationIdKey) !== undefined && attributes.get(CurrentStepKey) !== stepId)
    upsertSearchAttributes([{ key: CurrentStepKey, value: stepId }]);
}

/**
 * One contact's execution of an automation, running the definition snapshot it was started with: a thin
 * driver around the step interpreter. The quick steps (SEND_EMAIL, CONDITION, UPDATE_CONTACT, EXIT) run one
 * after the other in the local activity advanceAutomation, which records each in the execution record and
 * stops where the workflow has to act: a DELAY's timer, a WAIT_FOR_EVENT's event, a WEBHOOK's activity, or the
 * end, or after a step held by its project's suspension, which waits here until the reinstatement (hold.ts).
 * Cancelling the workflow marks the execution CANCELLED; a step that fails after its retries marks it
 * FAILED and fails the run. Reaching the definition's goal ends it CONVERTED wherever it stands (goal.ts).
 * (Runs started before this version run `automation`, workflows/automation/legacy.)
 */
export async function automationV2(input: AutomationInput): Promise<AutomationResult> {
  let { definition } = input;
  const inbox = new Inbox();
  setHandler(automationEvent, (event) => inbox.add(event));
  const hold = new Hold();
  setHandler(projectReinstated, () => hold.wake());
  const migrations = new Migrations();
  setHandler(migrateVersion, (migration) => migrations.add(migration));
  const mirror = new Mirror(input.executionId, input.context, finishAutomation);
  const goal = watchGoal(definition.goal);
  if (goal) setHandler(automationGoal, (event) => goal.reach(event));
  /** The run's own waits, cut short by the goal (run as they are without one). */
  const waiting = <T>(wait: () => Promise<T>): Promise<T | null> => (goal ? goal.during(wait) : wait());
  let next: Next = firstStep(definition);
  /** A quick step that waited out its quiet hours: advanced again from its entry, not entered anew. */
  let proceeding = false;
  try {
    while (next.kind === 'step') {
      // A goal reached while the last step ran: nothing more acts.
      if (goal?.reached) break;
      let step = next.step;
      if (proceeding) mirror.proceed();
      else mirror.enter(step);
      proceeding = false;
      let lookBack: LookBack | null = null;
      let resumeAt: string | null = null;
      const stop = stopOf(step);
      if (!stop || stop.waitingFor) {
        const moved = await advancing(stepSummary(definition.name, mirror.stepCount, step)).advanceAutomation({
          executionId: input.executionId,
          definition,
          state: mirror.state(),
          workflowNow: Date.now(),
          used: inbox.usedIds(),
        });
        if (!moved) throw new ExecutionGoneSignal();
        mirror.adopt(moved.tail);
        if (mirror.failure !== null) throw new RecordedFailure(mirror.failure);
        if (mirror.ended || goal?.reached) break;
        step = stepById(definition, mirror.current!.stepId);
        if (moved.held) {
          // Its email is queued and held by the pump; the steps after it count from when it can leave.
          showCurrentStep(step.id);
          const summary = stepSummary(definition.name, mirror.stepCount, step);
          const { held } = moved;
          await waiting(() => hold.whileSuspended(summary, held.reason, () => projectSuspension(input.projectId)));
          if (goal?.reached) break;
          mirror.complete(moved.held.output);
          next = nextStep(definition, step, (stepType(step) as QuickStep).resultOf(moved.held.output));
          continue;
        }
        if (moved.resumeAt && stepType(step).kind === 'quick') {
          // Quiet hours or the frequency cap: the step waits (WAITING, recorded) until then, then acts. (Only the
          // summary's words differ between the two: no command changes, so recorded histories replay as they were.)
          const summary = `${stepSummary(definition.name, mirror.stepCount, step)}: ${moved.waitsFor ?? 'quiet hours'} until ${moved.resumeAt}`;
          setCurrentDetails(summary);
          showCurrentStep(step.id);
          const quietEnd = Date.parse(moved.resumeAt);
          const quietStep = step;
          const quiet = await waiting(() => migrations.rest(quietStep.id, () => sleep(Math.max(1, quietEnd - Date.now()), { summary })));
          if (!quiet) break;
          if ('migration' in quiet) {
            ({ definition, next } = await migrate(definition, quiet.migration));
            continue;
          }
          proceeding = true;
          next = { kind: 'step', step };
          continue;
        }
        lookBack = moved.lookBack;
        resumeAt = moved.resumeAt ?? null;
      }
      const summary = stepSummary(definition.name, mirror.stepCount, step);
      setCurrentDetails(summary);
      showCurrentStep(step.id);
      const env = { executionId: input.executionId, mirror, inbox, summary, lookBack, resumeAt };
      // A step the execution waits in (WAITING) may be left for another version; WEBHOOK's call runs to its end.
      // Either is cut short by the goal.
      const stopStep = step;
      const rest = await waiting(async (): Promise<Rest<StepRun>> =>
        stopOf(stopStep)?.waitingFor ? migrations.rest(stopStep.id, () => runStop(stopStep, env)) : { done: await runStop(stopStep, env) },
      );
      if (!rest) break;
      if ('migration' in rest) {
        ({ definition, next } = await migrate(definition, rest.migration));
        continue;
      }
      mirror.complete(rest.done.output);
      next = nextStep(definition, step, rest.done.result);
    }
    if (!mirror.ended && goal?.reached) await mirror.convert(goal.reached);
    else if (!mirror.ended && next.kind === 'end') await mirror.end(next.status, next.status === 'EXITED' ? next.reason : null);
    const status = mirror.currentStatus as 'COMPLETED' | 'EXITED' | 'CONVERTED';
    setCurrentDetails(`${definition.name}: ${status.toLowerCase()} after ${mirror.stepCount} step(s)`);
    return { status, steps: mirror.stepCount };
  } catch (err) {
    if (isGone(err)) return { status: 'GONE', steps: mirror.stepCount };
    if (err instanceof RecordedFailure)
      throw ApplicationFailure.nonRetryable(`Step ${mirror.stepCount} failed: ${err.message}`, STEP_FAILED);
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() => mirror.cancel());
      throw err;
    }
    const message = failureMessage(err);
    await mirror.fail(message).catch((failed: unknown) => {
      if (!isGone(failed)) throw failed;
    });
    throw ApplicationFailure.nonRetryable(`Step ${mirror.stepCount} failed: ${message}`, STEP_FAILED);
  }

  /**
   * The operator moved the execution to another version while it waited here: the record takes the new definition,
   * the step it waited in completes with `{migrated: {version, toStepId}}`, and the run goes on at `toStepId`.
   */
  async function migrate(from: Definition, migration: VersionMigration): Promise<{ definition: Definition; next: Next }> {
    // The goal is the execution's, taken as it started, not the version's: it goes with the run.
    const to = from.goal ? { ...migration.definition, goal: from.goal } : migration.definition;
    const summary = `${to.name}: version ${from.version ?? '?'} → ${to.version ?? '?'}, step ${mirror.stepCount} moves to ${migration.toStepId}`;
    setCurrentDetails(summary);
    if (!(await advancing(summary).adoptAutomationVersion({ executionId: input.executionId, definition: to })))
      throw new ExecutionGoneSignal();
    mirror.complete({ migrated: { version: to.version ?? null, toStepId: migration.toStepId } });
    return { definition: to, next: { kind: 'step', step: stepById(to, migration.toStepId) } };
  }
}
