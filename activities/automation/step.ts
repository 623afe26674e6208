import { ApplicationFailure } from '@temporalio/activity';
import type { EntityManager } from '@mikro-orm/postgresql';
import { writeAndRead, type MirrorState } from '../../src/modules/automations/records';
import { ExecutionGone, StepFailed } from '../../src/modules/automations/run/errors';
import type { SimulationRuns } from '../../src/modules/automations/simulate/run';
import { EXECUTION_GONE, STEP_FAILED } from '../../workflows/automation/ids';

/** What a step's activity takes (workflows/automation/steps/step.ts `stepInput`). */
export interface StepInput<C> {
  executionId: string;
  stepId: string;
  config: C;
  context: Record<string, unknown>;
  /** The execution's state on entering the step, written before the step acts. */
  state: MirrorState;
}

/** Domain failures become non-retryable activity failures; anything else is retried by Temporal. */
export async function asActivity<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ExecutionGone) throw ApplicationFailure.nonRetryable(err.message, EXECUTION_GONE);
    if (err instanceof StepFailed) throw ApplicationFailure.nonRetryable(err.message, STEP_FAILED);
    throw err;
  }
}

/** Records the step's entry and reads the execution back: a step acts only for one still active. */
export async function enter(em: EntityManager, state: MirrorState) {
  const live = await writeAndRead(em, state);
  if (!live) throw new ExecutionGone(state.executionId);
  return live;
}

/** A simulated step's entry: its state goes to the simulation's record, never to the database (docs/simulation.md). */
export const enterSimulation = (runs: SimulationRuns, state: MirrorState) => runs.enter(state);

/** The simulation a simulated step's work belongs to; one no longer here has ended (its request answered). */
export function simulationOf(runs: SimulationRuns, state: MirrorState) {
  const run = runs.find(state.executionId);
  if (!run) throw new ExecutionGone(state.executionId);
  return run;
}
