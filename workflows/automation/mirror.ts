import { workflowInfo } from '@temporalio/workflow';
import type { EndStatus, ExecutionStatus, StepHistoryEntry, StepSnapshot } from './definition';
import type { AutomationEvent } from './ids';
import type { MirrorState } from '../../src/modules/automations/records';

/** The execution record is gone or was cancelled through the API: the run has nothing left to do. */
export class ExecutionGoneSignal extends Error {}

type Save = (state: MirrorState) => Promise<boolean>;

/** Where the mirror's timestamps and run id come from: the workflow's own clock, or an activity's (`activityClock`). */
export interface MirrorClock {
  now(): string;
  runId(): string;
}

const workflowClock: MirrorClock = { now: () => new Date().toISOString(), runId: () => workflowInfo().runId };

/**
 * The mirror's state past a given step of its history: what an activity that moved the execution on
 * (advanceAutomation) hands back, for the workflow to take as its own.
 */
export interface MirrorTail {
  /** The sequence number of the last state taken (written, or handed to a step's activity). */
  seq: number;
  status: ExecutionStatus;
  currentStepId: string | null;
  waitingFor: string | null;
  exitReason: string | null;
  error: string | null;
  /** The next write enters a new step (see MirrorState.stepBegins). */
  stepBegins: boolean;
  /** Values added to the context (an UPDATE_CONTACT's non-persistent data). */
  contextPatch: Record<string, unknown> | null;
  /** Where `history` begins in the whole history. */
  from: number;
  history: StepHistoryEntry[];
}

/**
 * The execution's state as the workflow knows it, written to the execution record after each change
 * (status, current step, context, step history with timings and outputs). Timestamps are workflow time, so
 * history reads the same on replay and a skipped 3-day DELAY shows as 3 days. The same state machine runs in
 * the activity that moves an execution through several steps at once, with that activity's clock (set off
 * to the workflow's), and the workflow then takes what it wrote (`adopt`).
 */
export class Mirror {
  private seq = 0;
  private status: ExecutionStatus = 'RUNNING';
  private currentStepId: string | null = null;
  private waitingFor: string | null = null;
  private exitReason: string | null = null;
  private error: string | null = null;
  private history: StepHistoryEntry[] = [];
  /** The next write enters a new step (see MirrorState.stepBegins). */
  private stepBegins = false;
  context: Record<string, unknown>;

  constructor(
    private readonly executionId: string,
    context: Record<string, unknown>,
    private readonly save: Save,
    private readonly clock: MirrorClock = workflowClock,
  ) {
    this.context = { ...context };
  }

  /** A mirror that continues from a state already taken (its sequence number used). */
  static resume(state: MirrorState, save: Save, clock: MirrorClock): Mirror {
    const mirror = new Mirror(state.executionId, state.context, save, clock);
    Object.assign(mirror, {
      seq: state.seq,
      status: state.status,
      currentStepId: state.currentStepId,
      waitingFor: state.waitingFor,
      exitReason: state.exitReason,
      error: state.error,
      history: state.history.map((h) => ({ ...h })),
      stepBegins: state.stepBegins,
    });
    return mirror;
  }

  private get last(): StepHistoryEntry | undefined {
    return this.history[this.history.length - 1];
  }

  get stepCount(): number {
    return this.history.length;
  }

  /** COMPLETED, EXITED, CONVERTED, FAILED or CANCELLED. */
  get ended(): boolean {
    return !(this.status === 'RUNNING' || this.status === 'WAITING');
  }

  get currentStatus(): ExecutionStatus {
    return this.status;
  }

  get failure(): string | null {
    return this.error;
  }

  /** The entry of the step the execution is in (or ended at). */
  get current(): StepHistoryEntry | undefined {
    return this.last;
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
      temporalRunId: this.clock.runId(),
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
    const startedAt = this.clock.now();
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

  /** The current step, which waited (SEND_EMAIL's quiet hours), acts now: RUNNING again, in the same entry. */
  proceed(): void {
    this.status = 'RUNNING';
    this.waitingFor = null;
    if (this.last) this.last.status = 'RUNNING';
  }

  /** The current step is done; written with the next step's entry or the end. */
  complete(output: Record<string, unknown> | null): void {
    this.status = 'RUNNING';
    this.waitingFor = null;
    if (this.last) Object.assign(this.last, { status: 'COMPLETED', completedAt: this.clock.now(), output });
  }

  /** The execution ends (in memory; the caller writes it). */
  close(status: Exclude<EndStatus, 'FAILED' | 'CANCELLED' | 'CONVERTED'>, exitReason: string | null): void {
    this.status = status;
    this.exitReason = exitReason;
    this.currentStepId = null;
  }

  async end(status: Exclude<EndStatus, 'FAILED' | 'CANCELLED' | 'CONVERTED'>, exitReason: string | null): Promise<void> {
    this.close(status, exitReason);
    await this.write();
  }

  private closeStep(status: 'FAILED' | 'CANCELLED' | 'CONVERTED', error: string | null, output?: Record<string, unknown>): void {
    this.status = status;
    this.waitingFor = null;
    if (this.last && this.last.completedAt === null)
      Object.assign(this.last, { status, completedAt: this.clock.now(), error, ...(output && { output }) });
  }

  /** The goal was reached (its event in the step's output) while at the current step: both end there. */
  async convert(event: AutomationEvent): Promise<void> {
    this.closeStep('CONVERTED', null, { goal: { eventId: event.id, eventName: event.name, data: event.data } });
    await this.write();
  }

  /** The current step failed for good, and the execution with it (in memory; `fail` writes it). */
  failStep(error: string): void {
    this.closeStep('FAILED', error);
    this.error = error;
  }

  async fail(error: string): Promise<void> {
    this.failStep(error);
    await this.write();
  }

  /** The run was cancelled where it stood (in memory; `cancel` writes it). */
  cancelStep(): void {
    this.closeStep('CANCELLED', null);
  }

  /** Written whatever the record says: the API may have marked it CANCELLED already. */
  async cancel(): Promise<void> {
    this.cancelStep();
    await this.save(this.state());
  }

  /** Its state past `from` history entries, for the workflow to adopt; `base` is the context it began with. */
  tail(from: number, base: Record<string, unknown>): MirrorTail {
    const patch = Object.fromEntries(Object.entries(this.context).filter(([key, value]) => base[key] !== value));
    return {
      seq: this.seq,
      status: this.status,
      currentStepId: this.currentStepId,
      waitingFor: this.waitingFor,
      exitReason: this.exitReason,
      error: this.error,
      stepBegins: this.stepBegins,
      contextPatch: Object.keys(patch).length ? patch : null,
      from,
      history: this.history.slice(from),
    };
  }

  /** Takes the state an activity moved the execution to, as if it had made each change itself. */
  adopt(tail: MirrorTail): void {
    this.seq = tail.seq;
    this.status = tail.status;
    this.currentStepId = tail.currentStepId;
    this.waitingFor = tail.waitingFor;
    this.exitReason = tail.exitReason;
    this.error = tail.error;
    this.stepBegins = tail.stepBegins;
    if (tail.contextPatch) this.context = { ...this.context, ...tail.contextPatch };
    this.history = [...this.history.slice(0, tail.from), ...tail.history];
  }
}

/**
 * An activity's clock for a mirror it runs: the workflow's time when the activity was scheduled, moved on by
 * the real time the activity has taken since. On a real server that is the real time; on the time-skipping
 * test server it keeps a skipped 3-day DELAY in the timings.
 */
export function activityClock(workflowNowMs: number, runId: string): MirrorClock {
  const offset = workflowNowMs - Date.now();
  return { now: () => new Date(Date.now() + offset).toISOString(), runId: () => runId };
}
