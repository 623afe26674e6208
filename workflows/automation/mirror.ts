import { workflowInfo } from '@temporalio/workflow';
import type { EndStatus, ExecutionStatus, StepHistoryEntry, StepSnapshot } from './definition';
import type { MirrorState } from '../../src/modules/automations/records';

/** The execution record is gone or was cancelled through the API: the run has nothing left to do. */
export class ExecutionGoneSignal extends Error {}

type Save = (state: MirrorState) => Promise<boolean>;

/**
 * The execution's state as the workflow knows it, written to the execution record after each change
 * (status, current step, context, step history with timings and outputs). Timestamps are workflow time, so
 * history reads the same on replay and a skipped 3-day DELAY shows as 3 days.
 */
export class Mirror {
  private seq = 0;
  private status: ExecutionStatus = 'RUNNING';
  private currentStepId: string | null = null;
  private waitingFor: string | null = null;
  private exitReason: string | null = null;
  private error: string | null = null;
  private readonly history: StepHistoryEntry[] = [];
  /** The next write enters a new step (see MirrorState.stepBegins). */
  private stepBegins = false;
  context: Record<string, unknown>;

  constructor(
    private readonly executionId: string,
    context: Record<string, unknown>,
    private readonly save: Save,
  ) {
    this.context = { ...context };
  }

  private get last(): StepHistoryEntry | undefined {
    return this.history[this.history.length - 1];
  }

  /**
   * The state to write next, for the local save or for the step's own activity, which writes it before it
   * acts; each call takes a new sequence number.
   */
  state(): MirrorState {
    const stepBegins = this.stepBegins;
    this.stepBegins = false;
    return {
      executionId: this.executionId,
      seq: ++this.seq,
      status: this.status,
      currentStepId: this.currentStepId,
      stepBegins,
      waitingFor: this.waitingFor,
      context: this.context,
      history: this.history,
      exitReason: this.exitReason,
      error: this.error,
      ended: !(this.status === 'RUNNING' || this.status === 'WAITING'),
      temporalRunId: workflowInfo().runId,
    };
  }

  /** Writes the state through the local save activity. */
  async write(): Promise<void> {
    if (!(await this.save(this.state()))) throw new ExecutionGoneSignal();
  }

  /**
   * The step begins (in memory; the next write records it). The first one began when the execution was
   * recorded, so an event tracked in between counts for a WAIT_FOR_EVENT there.
   */
  enter(step: StepSnapshot): void {
    this.stepBegins = this.history.length > 0;
    this.status = 'RUNNING';
    this.currentStepId = step.id;
    this.waitingFor = null;
    const startedAt = new Date().toISOString();
    this.history.push({
      stepId: step.id,
      type: step.type,
      name: step.name,
      status: 'RUNNING',
      startedAt,
      completedAt: null,
      output: null,
      error: null,
    });
  }

  /** WAITING in a DELAY (`eventName` null) or a WAIT_FOR_EVENT; the caller writes the state. */
  wait(eventName: string | null): void {
    this.status = 'WAITING';
    this.waitingFor = eventName;
    if (this.last) this.last.status = 'WAITING';
  }

  /** The current step is done; written with the next step's entry or the end. */
  complete(output: Record<string, unknown> | null): void {
    this.status = 'RUNNING';
    this.waitingFor = null;
    if (this.last) Object.assign(this.last, { status: 'COMPLETED', completedAt: new Date().toISOString(), output });
  }

  async end(status: Exclude<EndStatus, 'FAILED' | 'CANCELLED'>, exitReason: string | null): Promise<void> {
    this.status = status;
    this.exitReason = exitReason;
    this.currentStepId = null;
    await this.write();
  }

  private closeStep(status: 'FAILED' | 'CANCELLED', error: string | null): void {
    this.status = status;
    this.waitingFor = null;
    if (this.last && this.last.completedAt === null) Object.assign(this.last, { status, completedAt: new Date().toISOString(), error });
  }

  async fail(error: string): Promise<void> {
    this.closeStep('FAILED', error);
    this.error = error;
    await this.write();
  }

  /** Written whatever the record says: the API may have marked it CANCELLED already. */
  async cancel(): Promise<void> {
    this.closeStep('CANCELLED', null);
    await this.save(this.state());
  }
}
