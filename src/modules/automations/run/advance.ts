import { delayMs, type Definition, type QuietHours, type StepOf, type StepType } from '../../../../workflows/automation/definition';
import { stepById } from '../../../../workflows/automation/entry';
import { nextStep } from '../../../../workflows/automation/interpreter';
import { activityClock, Mirror, type MirrorTail } from '../../../../workflows/automation/mirror';
import { stepType } from '../../../../workflows/automation/steps';
import type { LookBack } from '../../../../workflows/automation/steps/step';
import { nextLocalTime, quietUntil } from '../../../local-time';
import type { LiveExecution, MirrorState } from '../records';
import { StepFailed } from './errors';

/** What advanceAutomation takes (workflows/automation/workflow.ts). */
export interface AdvanceInput {
  executionId: string;
  definition: Definition;
  /** The state with the step to begin at entered; its sequence number is taken (written first). */
  state: MirrorState;
  /** The workflow's time when it scheduled the activity, ms: the timings recorded follow its clock. */
  workflowNow: number;
  /** Events earlier waits took, which a WAIT_FOR_EVENT's look-back skips. */
  used: string[];
}

/**
 * A quick step held by its project's suspension (docs/automations.md "While the project is suspended"): its work
 * is done, it is still RUNNING, and the workflow completes it with `output` once the project is reinstated.
 */
export interface Held {
  reason: string;
  output: Record<string, unknown> | null;
}

/**
 * Where the execution now is: its mirror past the step it began at, a wait's look-back, a hold, when a timer
 * to a local time of day ends (`resumeAt`, ISO). Null: it is gone.
 */
export type Advanced = {
  tail: MirrorTail;
  lookBack: LookBack | null;
  held?: Held;
  resumeAt?: string;
  /** Why a quick step waits until `resumeAt`, for the timer's summary; absent: its quiet hours. */
  waitsFor?: 'frequency cap';
} | null;

/** A quick step's work, once its entry is written: what it produced, and values for the context. */
export interface WorkDone {
  output: Record<string, unknown> | null;
  variables?: Record<string, unknown>;
  /** The project is suspended (its reason): the execution waits after this step's work, in the workflow. */
  held?: string | null;
  /** The step did not act and waits until this instant (ISO) to run again (SEND_EMAIL over the frequency cap). */
  waitUntil?: string;
}

export interface WorkContext {
  live: LiveExecution;
  /** The state written on entering the step. */
  state: MirrorState;
  context: Record<string, unknown>;
  /** The workflow's clock, ms. */
  now: number;
}

export type QuickWork<T extends StepType> = (step: StepOf<T>, at: WorkContext) => Promise<WorkDone>;
/** Each quick type's work (null for the stop types, which the workflow runs): activities/automation/<type>.ts. */
export type QuickWorks = { [T in StepType]: QuickWork<T> | null };

/** The database (or a simulation's record) as advance sees it. */
export interface AdvanceIo {
  /** Writes a state that enters or waits in a step and reads the execution back; null when the write was refused. */
  enter(state: MirrorState): Promise<LiveExecution | null>;
  /** Writes a state; false when the write was refused. */
  write(state: MirrorState): Promise<boolean>;
  /** The state written last; null when the record is gone. */
  written(executionId: string): Promise<MirrorState | null>;
  works: QuickWorks;
  /** The contact's time zone for local times of day: its own, else the project's. */
  timeZone(live: LiveExecution): Promise<string>;
  /** The same zone for the execution as its record stands, before a write; null when the record is gone. */
  zoneOf(state: MirrorState): Promise<string | null>;
  /** The first event named `eventName` since the waiting step began, but those in `used`. */
  lookBack(state: MirrorState, live: LiveExecution, eventName: string, used: string[]): Promise<LookBack>;
}

/** A run of the same advance may find the record moved on by another: it continues from there, a few times. */
const MAX_RESUMES = 5;

const noSave = async () => true;

/**
 * Moves an execution through its quick steps (SEND_EMAIL, CONDITION, UPDATE_CONTACT, EXIT) one after the other,
 * as the interpreter leads, until it ends or reaches a stop step: one it waits in (DELAY, WAIT_FOR_EVENT), whose
 * entry and WAITING mark it records (with a WAIT_FOR_EVENT's look-back), or one that records its own entry
 * (WEBHOOK). Each quick step's entry is written before it acts, so the record is the journal of the advance: run
 * again (a retry, or another worker after a crash), it continues where the record stands instead of deciding a
 * step again. A step that fails for good is recorded FAILED here, with the execution. A step whose work says the
 * project is suspended stops the advance after it, still RUNNING: the workflow holds it (`held`).
 */
export async function advance(io: AdvanceIo, input: AdvanceInput): Promise<Advanced> {
  const { definition } = input;
  const clock = activityClock(input.workflowNow, input.state.temporalRunId);
  const from = input.state.history.length - 1;
  // The first write is the state handed over, sequence number and all.
  let mirror = Mirror.resume({ ...input.state, seq: input.state.seq - 1 }, noSave, clock);
  let resumes = 0;
  const tail = (lookBack: LookBack | null = null, held?: Held, resumeAt?: string, waitsFor?: 'frequency cap'): Advanced => ({
    tail: mirror.tail(from, input.state.context),
    lookBack,
    ...(held && { held }),
    ...(resumeAt && { resumeAt }),
    ...(waitsFor && { waitsFor }),
  });

  /** After a refused write: the record cancelled or gone (null), or moved on by another run of this advance. */
  const resume = async (): Promise<boolean> => {
    const written = await io.written(input.executionId);
    if (!written || written.status === 'CANCELLED' || written.seq < input.state.seq || written.history.length <= from) return false;
    if (++resumes > MAX_RESUMES) throw new Error(`execution ${input.executionId} keeps moving under this advance`);
    mirror = Mirror.resume(written, noSave, clock);
    return true;
  };

  for (;;) {
    const entry = mirror.current;
    if (mirror.ended || !entry) return tail();
    const step = stepById(definition, entry.stepId);
    const type = stepType(step);
    if (type.kind === 'stop') {
      // A step that records its own entry (WEBHOOK's activity) is left to the workflow, entered in memory.
      if (!type.waitingFor) return tail();
      const eventName = type.waitingFor(step.config);
      const localTime = type.localTime?.(step.config) ?? null;
      mirror.wait(eventName);
      const state = mirror.state();
      if (localTime !== null) {
        // A timer to a local time of day: its end is decided here, once, from the contact's zone, and written with
        // the WAITING mark, so that the execution's resumesAt names the instant the workflow's timer ends (it is in
        // the result) from the moment the execution reads WAITING.
        const zone = await io.zoneOf(state);
        if (zone !== null) {
          const after = Date.parse(state.history[state.history.length - 1]!.startedAt) + delayMs(step.config as object);
          const resumesAt = new Date(nextLocalTime(after, localTime, zone)).toISOString();
          if (await io.write({ ...state, resumesAt })) return tail(null, undefined, resumesAt);
        }
      } else if (eventName === null) {
        // A timer's wait is dated by this write, which the workflow follows at once with the timer: the execution's
        // resumesAt (resume-times.ts) then names when the timer ends, also for a first step recorded long before a
        // busy worker reached it. (A WAIT_FOR_EVENT keeps its start, from which it looks back for the event.)
        if (await io.write({ ...state, stepBegins: true })) return tail();
      } else {
        const live = await io.enter(state);
        if (live) return tail(await io.lookBack(state, live, eventName, input.used));
      }
      if (!(await resume())) return null;
      continue;
    }
    const state = mirror.state();
    const live = await io.enter(state);
    if (!live) {
      if (!(await resume())) return null;
      continue;
    }
    /**
     * The step waits in the workflow until `resumesAt` (ISO), then acts (`resumeAt`): written with the WAITING mark,
     * like a DELAY's local time, so that the execution's resumesAt names the instant. False: the record moved.
     */
    const waitsUntil = async (resumesAt: string): Promise<boolean> => {
      mirror.wait(null);
      return io.write({ ...mirror.state(), resumesAt });
    };
    // Quiet hours (SEND_EMAIL): inside them, the step waits for their end.
    const now = Date.parse(clock.now());
    const quiet = (type.quietHours as ((config: unknown) => QuietHours | null) | undefined)?.(step.config) ?? null;
    const quietEnd = quiet && quietUntil(now, quiet, await io.timeZone(live));
    if (quietEnd) {
      const resumesAt = new Date(quietEnd).toISOString();
      if (await waitsUntil(resumesAt)) return tail(null, undefined, resumesAt);
      if (!(await resume())) return null;
      continue;
    }
    let done: WorkDone;
    try {
      done = await (io.works[step.type] as QuickWork<StepType> | null)!(step as StepOf<StepType>, {
        live,
        state,
        context: mirror.context,
        now,
      });
    } catch (err) {
      if (!(err instanceof StepFailed)) throw err;
      mirror.failStep(err.message);
      if (!(await io.write(mirror.state())) && !(await resume())) return null;
      continue;
    }
    // The work chose to wait (SEND_EMAIL over the frequency cap): as in quiet hours.
    if (done.waitUntil) {
      if (await waitsUntil(done.waitUntil)) return tail(null, undefined, done.waitUntil, 'frequency cap');
      if (!(await resume())) return null;
      continue;
    }
    if (done.variables) mirror.context = { ...mirror.context, ...done.variables };
    if (done.held) return tail(null, { reason: done.held, output: done.output });
    mirror.complete(done.output);
    const next = nextStep(definition, step, type.resultOf(done.output));
    if (next.kind === 'step') {
      mirror.enter(next.step);
      continue;
    }
    mirror.close(next.status, next.status === 'EXITED' ? next.reason : null);
    if (!(await io.write(mirror.state())) && !(await resume())) return null;
  }
}
