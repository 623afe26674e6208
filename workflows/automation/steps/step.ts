import type { StepConfigs, StepOf, StepResult, StepType } from '../definition';
import type { Hold } from '../hold';
import type { Inbox } from '../inbox';
import type { Mirror } from '../mirror';

/**
 * The workflow side of a step type: what a run of it may come to, its config in words, and how it runs.
 * One file per type in this folder; index.ts lists them.
 */
export interface WorkflowStep<T extends StepType> {
  /** What a run may come to; the interpreter refuses anything else. */
  results: readonly StepResult['kind'][];
  /** The config in words for summaries (`2 days`, `template …`); empty for none. */
  detail(config: StepConfigs[T]): string;
  /**
   * Runs the step, just entered. All I/O goes through activities; a step's activity writes the entered state
   * itself before it acts, which saves a round of writing per step.
   */
  run(step: StepOf<T>, env: StepEnv): Promise<StepRun>;
}

export interface StepRun {
  result: StepResult;
  output: Record<string, unknown> | null;
}

export interface StepEnv {
  executionId: string;
  projectId: string;
  mirror: Mirror;
  inbox: Inbox;
  /** Where a step waits while its project is suspended. */
  hold: Hold;
  summary: string;
}

export const done = (output: Record<string, unknown> | null = null): StepRun => ({ result: { kind: 'done' }, output });

/** What a step's activity takes: the step, its config, the context and the entered state, read at the call. */
export const stepInput = <T extends StepType>(step: StepOf<T>, env: StepEnv) => ({
  executionId: env.executionId,
  stepId: step.id,
  context: env.mirror.context,
  state: env.mirror.state(),
  config: step.config,
});
