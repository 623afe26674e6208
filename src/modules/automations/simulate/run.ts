import type { AutomationEvent } from '../../../../workflows/automation/ids';
import { ExecutionGone } from '../run/errors';
import type { LiveExecution, MirrorState } from '../records';

/**
 * One simulation as its activities see it (docs/simulation.md): the hypothetical contact they change, the
 * events that arrive at their offsets, the answers WEBHOOK steps get, and what each step produced. It lives in
 * the API process for the length of the request; nothing of it is written to the database.
 */

export interface SimulatedContact {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  /** A contact of the project (its stored events and segment memberships count for CONDITION steps). */
  stored: boolean;
}

export interface SimulatedEvent {
  id: string;
  name: string;
  data: Record<string, unknown>;
  /** From the start of the execution. */
  afterMs: number;
  /** The event that started the execution, which never reaches its goal. */
  trigger?: boolean;
}

export interface SimulatedEmail {
  to: string;
  from: string;
  subject: string;
  html: string;
  text: string | null;
}

export interface SimulatedWebhook {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  response: { status: number; body: unknown };
}

/** What a step produced beyond its history entry. */
export interface StepProduct {
  email?: SimulatedEmail;
  /** SEND_EMAIL sent nothing: the project's frequency cap held it back (onCap "skip"). */
  skipped?: 'FREQUENCY_CAPPED';
  webhook?: SimulatedWebhook;
  contact?: { subscribed: boolean; data: Record<string, unknown> };
}

export interface WebhookAnswer {
  status: number;
  body?: unknown;
}

export class SimulationRun {
  /** The execution's start on the test server's clock (ms), set when the run starts. */
  origin = 0;
  /** The real time the simulation began: CONDITION steps compare stored events against it. */
  readonly realOrigin = Date.now();
  /** The latest state the workflow wrote. */
  state: MirrorState | null = null;
  readonly products = new Map<string, StepProduct>();
  /** Service events the simulated steps recorded (`email.sent`, `contact.unsubscribed`, …), for later CONDITION steps. */
  readonly recorded: Array<{ name: string; afterMs: number }> = [];
  /** Offsets of the marketing emails the simulated steps sent, which the project's frequency cap counts. */
  readonly marketingSent: number[] = [];
  /** SEND_EMAIL steps that waited for the frequency cap to allow their email. */
  readonly capWaits = new Set<string>();
  private settledWaiters: Array<() => void> = [];

  constructor(
    readonly id: string,
    readonly projectId: string,
    readonly automationId: string,
    readonly contact: SimulatedContact,
    /** The trigger (at 0) and the events given, by offset. */
    readonly events: readonly SimulatedEvent[],
    readonly webhookAnswers: Readonly<Record<string, WebhookAnswer>>,
  ) {}

  /** Keeps the newest state the workflow wrote (a retried write may come late). */
  record(state: MirrorState): void {
    if (this.state && this.state.seq > state.seq) return;
    this.state = state;
    if (this.settled) for (const resolve of this.settledWaiters.splice(0)) resolve();
  }

  /** Waiting, or ended: the workflow has nothing to do until a timer or an event. */
  get settled(): boolean {
    return this.state !== null && this.state.status !== 'RUNNING';
  }

  /** Resolves once the run is settled, or after `ms` of real time. */
  whenSettled(ms: number): Promise<void> {
    if (this.settled) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.settledWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  product(stepId: string): StepProduct {
    let product = this.products.get(stepId);
    if (!product) this.products.set(stepId, (product = {}));
    return product;
  }

  /** Offset from the start of a workflow timestamp. */
  elapsed(at: string): number {
    return Date.parse(at) - this.origin;
  }

  /** When the step being entered in `state` began, as an offset. */
  stepElapsed(state: MirrorState): number {
    const entry = state.history[state.history.length - 1];
    return entry ? this.elapsed(entry.startedAt) : 0;
  }

  /** The event as the workflow receives it, stamped on the test server's clock. */
  delivered(event: SimulatedEvent): AutomationEvent {
    return { id: event.id, name: event.name, data: event.data, createdAt: new Date(this.origin + event.afterMs).toISOString() };
  }

  /** The first event named `name` that arrived from `sinceMs` to `untilMs` and was not taken yet. */
  firstEventBetween(name: string, sinceMs: number, untilMs: number, used: readonly string[]): AutomationEvent | null {
    const event = this.events.find((e) => e.name === name && e.afterMs >= sinceMs && e.afterMs <= untilMs && !used.includes(e.id));
    return event ? this.delivered(event) : null;
  }

  /** The execution as a step's own logic reads it. */
  live(state: MirrorState): LiveExecution {
    const { contact } = this;
    return {
      execution: {
        id: this.id,
        projectId: this.projectId,
        automationId: this.automationId,
        contactId: contact.id,
        entry: 1,
        stepStartedAt: new Date(this.realOrigin + this.stepElapsed(state)),
      },
      contact: { id: contact.id, email: contact.email, subscribed: contact.subscribed, data: contact.data },
    };
  }
}

/** The simulations running in this process, by execution id; the simulated activities find theirs here. */
export class SimulationRuns {
  private readonly runs = new Map<string, SimulationRun>();

  add(run: SimulationRun): void {
    this.runs.set(run.id, run);
  }

  remove(run: SimulationRun): void {
    this.runs.delete(run.id);
  }

  find(executionId: string): SimulationRun | undefined {
    return this.runs.get(executionId);
  }

  /** Records the state a step's activity enters with; a run no longer here has ended (its request answered). */
  enter(state: MirrorState): SimulationRun {
    const run = this.runs.get(state.executionId);
    if (!run) throw new ExecutionGone(state.executionId);
    run.record(state);
    return run;
  }
}
