import type { QuietHours, StepConfigs, StepOf, StepResult, StepType } from '../definition';
import type { AutomationEvent } from '../ids';
import type { Inbox } from '../inbox';
import type { Mirror } from '../mirror';

/**
 * The workflow side of a step type: what a run of it may come to, its config in words, and how the driver
 * moves through it. One file per type in this folder; index.ts lists them.
 *
 * - A **quick** step is database work of a moment: the local activity advanceAutomation runs it together
 *   with the quick steps after it, writing each one's entry before it acts, and the workflow then takes what
 *   that activity recorded (docs/automations.md "Running").
 * - A **stop** step is where the execution leaves the activity for the workflow: it waits there (a timer, an
 *   event; advanceAutomation has recorded it WAITING) or calls an activity of its own.
 */
export type WorkflowStep<T extends StepType> = StepWords<T> & (QuickStep | StopStep<T>);

interface StepWords<T extends StepType> {
  /** What a run may come to; the interpreter refuses anything else. */
  results: readonly StepResult['kind'][];
  /** The config in words for summaries (`2 days`, `template …`); empty for none. */
  detail(config: StepConfigs[T]): string;
}

export interface QuickStep {
  kind: 'quick';
  /**
   * Local hours the step does not act in (SEND_EMAIL's quiet hours): advanceAutomation stops before its work
   * there, WAITING, and the workflow sleeps until the window ends (`resumeAt`), then has it act.
   */
  quietHours?(config: never): QuietHours | null;
  /** What the step came to, read from the output its activity recorded. */
  resultOf(output: Record<string, unknown> | null): StepResult;
}

export interface StopStep<T extends StepType> {
  kind: 'stop';
  /**
   * A step the execution waits in: the event it waits for (null for a timer), recorded with its WAITING mark by
   * advanceAutomation. Absent for a step that records its own entry (the activity it calls does).
   */
  waitingFor?(config: StepConfigs[T]): string | null;
  /**
   * A timer step that ends at a local time of day (`HH:MM`): advanceAutomation turns it into an instant in the
   * contact's time zone, given to `run` as `resumeAt`. Null or absent for none.
   */
  localTime?(config: StepConfigs[T]): string | null;
  /** Runs the step, just entered. All I/O goes through activities. */
  run(step: StepOf<T>, env: StopEnv): Promise<StepRun>;
}

export interface StepRun {
  result: StepResult;
  output: Record<string, unknown> | null;
}

/** What advanceAutomation found when it recorded a WAIT_FOR_EVENT: the step's start, and an event since then. */
export interface LookBack {
  since: string;
  event: AutomationEvent | null;
}

export interface StopEnv {
  executionId: string;
  mirror: Mirror;
  inbox: Inbox;
  summary: string;
  /** For a step that waits for an event. */
  lookBack: LookBack | null;
  /** For a step with a local time (`localTime`): when its wait ends, ISO. */
  resumeAt: string | null;
}

export const done = (output: Record<string, unknown> | null = null): StepRun => ({ result: { kind: 'done' }, output });

/** The result of a quick step that simply finishes. */
export const finished = (): StepResult => ({ kind: 'done' });

/** What a stop step's own activity takes: the step, its config, the context and the entered state, read at the call. */
export const stepInput = <T extends StepType>(step: StepOf<T>, env: StopEnv) => ({
  executionId: env.executionId,
  stepId: step.id,
  context: env.mirror.context,
  state: env.mirror.state(),
  config: step.config,
});
