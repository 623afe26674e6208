import { delayMs, type Branch, type Definition, type StepHistoryEntry } from '../../../../workflows/automation/definition';
import { isoDuration } from './duration';
import type { SimulationRun } from './run';
import type { ExpectationFailure, SimulateBody, SimulatedStep, SimulationResponse } from './schemas';

/** What a history entry's output says about the way the step left: its branch, or its outcome. */
function exitOf(entry: StepHistoryEntry): Pick<SimulatedStep, 'branch' | 'outcome'> {
  const output = entry.output ?? {};
  if ((entry.type === 'CONDITION' || entry.type === 'RANDOM_SPLIT') && typeof output.branch === 'string')
    return { branch: output.branch as Branch };
  if (entry.type === 'WAIT_FOR_EVENT' && entry.completedAt) return { outcome: output.timedOut ? 'TIMEOUT' : 'EVENT' };
  return {};
}

/**
 * How long a finished step held the execution, by its type's rule: a DELAY its length, a WAIT_FOR_EVENT until
 * its event arrived or its timeout passed, every other step no time. The test server's clock also moves while a
 * task runs (milliseconds, seconds on a loaded machine); offsets from these rules leave that noise out.
 */
function heldMs(definition: Definition, run: SimulationRun, entry: StepHistoryEntry, startMs: number): number {
  const step = definition.steps.find((s) => s.id === entry.stepId);
  // Ended by the goal: until its event arrived.
  if (entry.status === 'CONVERTED')
    return untilEvent(run, entry, startMs, (entry.output?.goal as { eventId?: string } | undefined)?.eventId);
  if (step?.type === 'DELAY') {
    // Until a local time: to the instant the step recorded.
    const until = entry.output?.until;
    return typeof until === 'string' ? Math.max(0, run.elapsed(until) - startMs) : delayMs(step.config);
  }
  // A SEND_EMAIL that waited out its quiet hours or the frequency cap: until it sent, on the workflow's clock.
  if (step?.type === 'SEND_EMAIL' && (step.config.quietHours || run.capWaits.has(step.id)) && entry.completedAt)
    return Math.max(0, run.elapsed(entry.completedAt) - startMs);
  if (step?.type !== 'WAIT_FOR_EVENT') return 0;
  if (entry.output?.timedOut) return (step.config.timeout ?? 0) * 1000;
  return untilEvent(run, entry, startMs, entry.output?.eventId);
}

/** Until the event named arrived (a WAIT_FOR_EVENT's, the goal's), else until the step ended on the workflow's clock. */
function untilEvent(run: SimulationRun, entry: StepHistoryEntry, startMs: number, eventId: unknown): number {
  const event = run.events.find((e) => e.id === eventId);
  return Math.max(0, event ? event.afterMs - startMs : run.elapsed(entry.completedAt!) - startMs);
}

/** The simulation's answer (docs/simulation.md): each step reached with its offsets and what it produced. */
export function timelineOf(
  run: SimulationRun,
  definition: Definition,
  limitMs: number,
  wallMs: number,
): Omit<SimulationResponse, 'passed' | 'failures'> {
  const state = run.state;
  let at = 0;
  const steps = (state?.history ?? []).map((entry): SimulatedStep => {
    const startedAt = at;
    const finished = entry.status === 'COMPLETED' || entry.status === 'CONVERTED';
    if (finished) at += heldMs(definition, run, entry, startedAt);
    const product = run.products.get(entry.stepId) ?? {};
    return {
      stepId: entry.stepId,
      type: entry.type,
      name: entry.name,
      status: entry.status,
      startedAfter: isoDuration(startedAt),
      endedAfter: entry.completedAt ? isoDuration(at) : null,
      ...exitOf(entry),
      ...(entry.error ? { error: entry.error } : {}),
      ...product,
    };
  });
  const ended = state?.ended ?? false;
  return {
    status: state?.status ?? 'RUNNING',
    endedAfter: ended ? isoDuration(at) : null,
    steps,
    contact: { subscribed: run.contact.subscribed, data: run.contact.data },
    simulatedFor: isoDuration(ended ? at : limitMs),
    wallMs: Math.round(wallMs),
  };
}

/** `expect` of the request against the timeline: each expectation that does not hold is a failure. */
export function failuresOf(expect: NonNullable<SimulateBody['expect']>, steps: SimulatedStep[]): ExpectationFailure[] {
  const failures: ExpectationFailure[] = [];
  for (const e of expect) {
    const step = steps.find((s) => s.stepId === e.stepId);
    const check = (field: ExpectationFailure['field'], expected: unknown, actual: unknown) => {
      if (expected !== undefined && expected !== actual) failures.push({ stepId: e.stepId, field, expected, actual: actual ?? null });
    };
    check('reached', e.reached, step !== undefined);
    check('branch', e.branch, step?.branch);
    check('outcome', e.outcome, step?.outcome);
    check('status', e.status, step?.status);
  }
  return failures;
}
