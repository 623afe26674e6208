import type { Branch, StepHistoryEntry } from '../../../../workflows/automation/definition';
import { isoDuration } from './duration';
import type { SimulationRun } from './run';
import type { ExpectationFailure, SimulateBody, SimulatedStep, SimulationResponse } from './schemas';

/** What a history entry's output says about the way the step left: its branch, or its outcome. */
function exitOf(entry: StepHistoryEntry): Pick<SimulatedStep, 'branch' | 'outcome'> {
  const output = entry.output ?? {};
  if (entry.type === 'CONDITION' && typeof output.branch === 'string') return { branch: output.branch as Branch };
  if (entry.type === 'WAIT_FOR_EVENT' && entry.completedAt) return { outcome: output.timedOut ? 'TIMEOUT' : 'EVENT' };
  return {};
}

/** The simulation's answer (docs/simulation.md): each step reached with its offsets and what it produced. */
export function timelineOf(run: SimulationRun, simulatedMs: number, wallMs: number): Omit<SimulationResponse, 'passed' | 'failures'> {
  const state = run.state;
  const history = state?.history ?? [];
  const steps = history.map((entry): SimulatedStep => {
    const product = run.products.get(entry.stepId) ?? {};
    return {
      stepId: entry.stepId,
      type: entry.type,
      name: entry.name,
      status: entry.status,
      startedAfter: isoDuration(run.elapsed(entry.startedAt)),
      endedAfter: entry.completedAt ? isoDuration(run.elapsed(entry.completedAt)) : null,
      ...exitOf(entry),
      ...(entry.error ? { error: entry.error } : {}),
      ...product,
    };
  });
  const ended = state?.ended ?? false;
  const last = history[history.length - 1];
  const endedMs = ended && last?.completedAt ? run.elapsed(last.completedAt) : ended ? 0 : null;
  return {
    status: state?.status ?? 'RUNNING',
    endedAfter: endedMs === null ? null : isoDuration(endedMs),
    steps,
    contact: { subscribed: run.contact.subscribed, data: run.contact.data },
    simulatedFor: isoDuration(endedMs ?? simulatedMs),
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
