import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../src/deps';
import { readMirror, writeAndRead, writeMirror, type MirrorState } from '../../src/modules/automations/records';
import { advance, type AdvanceInput, type AdvanceIo, type Advanced, type QuickWorks } from '../../src/modules/automations/run/advance';
import { firstEventSince } from '../../src/modules/automations/run/wait';
import { contactTimeZone, executionTimeZone } from '../../src/modules/automations/run/time-zone';
import type { SimulationRuns } from '../../src/modules/automations/simulate/run';
import { Mirror } from '../../workflows/automation/mirror';
import { conditionWork, simulatedConditionWork } from './condition';
import { randomSplitWork, simulatedRandomSplitWork } from './random-split';
import { sendEmailWork, simulatedSendEmailWork } from './send-email';
import { asActivity } from './step';
import { simulatedUpdateContactWork, updateContactWork } from './update-contact';

/** Each quick step type's work: one line per type (null for the stop types, which the workflow runs). */
const stepWorks = (deps: Deps, em: EntityManager): QuickWorks => ({
  SEND_EMAIL: sendEmailWork(deps, em),
  CONDITION: conditionWork(em),
  UPDATE_CONTACT: updateContactWork(em),
  EXIT: async () => ({ output: null }),
  RANDOM_SPLIT: randomSplitWork,
  DELAY: null,
  WAIT_FOR_EVENT: null,
  WEBHOOK: null,
});

const simulatedStepWorks = (deps: Deps, runs: SimulationRuns): QuickWorks => ({
  SEND_EMAIL: simulatedSendEmailWork(deps, runs),
  CONDITION: simulatedConditionWork(deps, runs),
  UPDATE_CONTACT: simulatedUpdateContactWork(runs),
  EXIT: async () => ({ output: null }),
  RANDOM_SPLIT: simulatedRandomSplitWork(runs),
  DELAY: null,
  WAIT_FOR_EVENT: null,
  WEBHOOK: null,
});

/** The execution record in PostgreSQL, through one entity manager for the whole advance. */
function databaseIo(deps: Deps, em: EntityManager): AdvanceIo {
  return {
    enter: (state) => writeAndRead(em, state),
    write: (state) => writeMirror(em, state),
    written: (executionId) => readMirror(em, executionId),
    works: stepWorks(deps, em),
    timeZone: (live) => contactTimeZone(em, live),
    zoneOf: (state) => executionTimeZone(em, state.executionId),
    lookBack: async (_state, live, eventName, used) => {
      const { contactId, stepStartedAt } = live.execution;
      return { since: stepStartedAt.toISOString(), event: await firstEventSince(em, contactId, eventName, stepStartedAt, used) };
    },
  };
}

/** A simulation's record (docs/simulation.md): states are kept for the answer, nothing is written. */
function simulationIo(deps: Deps, runs: SimulationRuns): AdvanceIo {
  return {
    enter: async (state) => {
      const run = runs.find(state.executionId);
      run?.record(state);
      return run ? run.live(state) : null;
    },
    write: async (state) => {
      const run = runs.find(state.executionId);
      run?.record(state);
      return run !== undefined;
    },
    written: async (executionId) => runs.find(executionId)?.state ?? null,
    works: simulatedStepWorks(deps, runs),
    // The simulated contact's data.timezone, else the project's zone (read only).
    timeZone: (live) => contactTimeZone(deps.orm.em.fork(), live),
    zoneOf: async (state) => {
      const run = runs.find(state.executionId);
      return run ? contactTimeZone(deps.orm.em.fork(), run.live(state)) : null;
    },
    lookBack: async (state, _live, eventName, used) => {
      const run = runs.find(state.executionId)!;
      const since = run.stepElapsed(state);
      return { since: new Date(run.origin + since).toISOString(), event: run.firstEventBetween(eventName, since, since, used) };
    },
  };
}

/**
 * The end of a run that failed or was cancelled, from the workflow. When an advance it did not hear back from
 * (it failed for good, or was cancelled) had moved the record on, the end is applied to the record as it stands.
 */
async function finish(io: Pick<AdvanceIo, 'write' | 'written'>, state: MirrorState): Promise<boolean> {
  if (await io.write(state)) return true;
  const written = await io.written(state.executionId);
  if (!written || written.seq < state.seq || !(state.status === 'FAILED' || state.status === 'CANCELLED')) return false;
  // A record the API cancelled still takes the run's own CANCELLED; any other end stands.
  if (written.ended && !(written.status === 'CANCELLED' && state.status === 'CANCELLED')) return false;
  const at = state.history[state.history.length - 1]?.completedAt ?? new Date().toISOString();
  const mirror = Mirror.resume(written, async () => true, { now: () => at, runId: () => state.temporalRunId });
  if (state.status === 'FAILED') mirror.failStep(state.error ?? 'failed');
  else mirror.cancelStep();
  return io.write(mirror.state());
}

export const advanceActivities = (deps: Deps) => ({
  /**
   * Runs the execution's quick steps from the one entered in `input.state` until it ends or reaches a step the
   * workflow runs, recording each (src/modules/automations/run/advance.ts). A local activity.
   */
  async advanceAutomation(input: AdvanceInput): Promise<Advanced> {
    return asActivity(() => advance(databaseIo(deps, deps.orm.em.fork()), input));
  },
  /** The execution's end written by the workflow itself (after a step it ran, a failure, a cancel). False: nothing left to do. */
  async finishAutomation(state: MirrorState): Promise<boolean> {
    return finish(databaseIo(deps, deps.orm.em.fork()), state);
  },
});

export const simulatedAdvanceActivities = (deps: Deps, runs: SimulationRuns) => ({
  async advanceAutomation(input: AdvanceInput): Promise<Advanced> {
    return asActivity(() => advance(simulationIo(deps, runs), input));
  },
  async finishAutomation(state: MirrorState): Promise<boolean> {
    return finish(simulationIo(deps, runs), state);
  },
});
