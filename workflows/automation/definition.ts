import type { FilterTree } from '../../src/modules/filters/schemas';

/**
 * The vocabulary of automations (docs/automations.md), free of runtime imports: the
 * Temporal workflow bundle shares it with the API.
 */

export const TRIGGER_TYPES = ['EVENT', 'MANUAL'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];
/** EVENT: `{ eventName }`; MANUAL: `{}` (started only through the API). */
export interface TriggerConfig {
  eventName?: string;
}

/** A step type is a key of `StepConfigs`; its two sides are registered in workflows/automation/steps/ and src/modules/automations/step-types/. */
export type StepType = keyof StepConfigs;

export const DELAY_UNITS = ['minutes', 'hours', 'days'] as const;
export type DelayUnit = (typeof DELAY_UNITS)[number];
export const WEBHOOK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

export interface SendEmailConfig {
  templateId: string;
  recipient?: { type: 'CONTACT' | 'CUSTOM'; email?: string };
  /** Carried by the step's emails and echoed by their events (docs/sending.md "Tags"). */
  tags?: Record<string, string>;
  /** Marketing about a topic: only its members get it, and its unsubscribe links leave the topic (docs/consent.md). */
  topicId?: string;
  /** Local times (`HH:MM`, the contact's zone) between which the email is not sent: the step waits until `to`. */
  quietHours?: QuietHours;
  /**
   * A marketing email over the project's frequency cap: `wait` (the default) holds the step until the cap
   * allows it, `skip` goes on without it (docs/automations.md "Frequency cap").
   */
  onCap?: 'wait' | 'skip';
}
/** A window of local time, overnight when `from` is later than `to`. */
export interface QuietHours {
  from: string;
  to: string;
}
/** An amount of time; a DELAY without `until` waits it. */
export interface Duration {
  amount: number;
  unit: DelayUnit;
}
/**
 * A DELAY waits its amount, or until the next `until` (`HH:MM`) in the contact's time zone (its `data.timezone`,
 * else the project's), or both: the amount first, then to the next `until` after it.
 */
export type DelayConfig = Duration | { until: string; amount?: number; unit?: DelayUnit };

const UNIT_MS: Record<DelayUnit, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

/** An amount of these units in ms (a DELAY's length, a simulation's offsets); none is 0. */
export const delayMs = (config: Partial<Duration>) => (config.amount ?? 0) * UNIT_MS[config.unit ?? 'minutes'];

/** The local time of day a DELAY waits for, if any. */
export const delayUntil = (config: DelayConfig): string | null => ('until' in config ? config.until : null);
export interface WaitForEventConfig {
  eventName: string;
  /** Seconds. */
  timeout?: number;
}
export interface WebhookConfig {
  url: string;
  method: WebhookMethod;
  headers?: Record<string, string>;
  body?: unknown;
}
export interface UpdateContactConfig {
  data?: Record<string, unknown>;
  subscribed?: boolean;
}
export interface ExitConfig {
  reason?: string;
}
/** One way out of a RANDOM_SPLIT: its share is its weight over the sum of the step's weights. */
export interface SplitBranchConfig {
  weight: number;
  /** What the branch tests (`Subject A`), for people; the branch itself is named by its place. */
  label?: string;
}
/** 2 to 5 weighted branches, named `A` to `E` in order; each contact always takes the same one of the same step. */
export interface RandomSplitConfig {
  branches: SplitBranchConfig[];
}

/** Each step type's config, once stored: the type registry the two sides' registries are checked against. */
export interface StepConfigs {
  SEND_EMAIL: SendEmailConfig;
  DELAY: DelayConfig;
  WAIT_FOR_EVENT: WaitForEventConfig;
  CONDITION: FilterTree;
  WEBHOOK: WebhookConfig;
  UPDATE_CONTACT: UpdateContactConfig;
  EXIT: ExitConfig;
  RANDOM_SPLIT: RandomSplitConfig;
}

/** What running a step came to; each step type names the kinds it may come to (workflows/automation/steps/). */
export type StepResult =
  /** A step that simply finishes: its plain transition follows. */
  | { kind: 'done' }
  /** CONDITION, RANDOM_SPLIT. */
  | { kind: 'branch'; branch: Branch }
  /** WAIT_FOR_EVENT: the event arrived, or the timeout passed first. */
  | { kind: 'event' }
  | { kind: 'timeout' };

/** A step as an execution sees it. */
export type StepSnapshot = { [T in StepType]: { id: string; name: string | null; type: T; config: StepConfigs[T] } }[StepType];
export type StepOf<T extends StepType> = { id: string; name: string | null; type: T; config: StepConfigs[T] };

export const CONDITION_BRANCHES = ['yes', 'no'] as const;
/** A RANDOM_SPLIT's branches, by their place in its config. */
export const SPLIT_BRANCHES = ['A', 'B', 'C', 'D', 'E'] as const;
export type SplitBranch = (typeof SPLIT_BRANCHES)[number];
export const BRANCHES = [...CONDITION_BRANCHES, ...SPLIT_BRANCHES] as const;
export type Branch = (typeof BRANCHES)[number];
export const OUTCOMES = ['EVENT', 'TIMEOUT'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface TransitionSnapshot {
  fromStepId: string;
  toStepId: string;
  branch: Branch | null;
  outcome: Outcome | null;
}

/**
 * What the automation is for (docs/automations.md "Goals"): once the contact tracks `event` (its data matching
 * `filter`, within `window` of the execution's start), the execution ends CONVERTED wherever it is.
 */
export interface Goal {
  event: string;
  /** On the event's data: `event.<key>` value filters only, judged where the event is handed over. */
  filter?: FilterTree;
  /** How long after the execution starts the goal counts; forever when absent. */
  window?: Duration;
}

/** The automation as it was when an execution started; stored on the execution and passed to its workflow. */
export interface Definition {
  name: string;
  /** The automation's version this graph is (docs/automations.md "Versions"); absent in runs started before versions. */
  version?: number;
  steps: StepSnapshot[];
  transitions: TransitionSnapshot[];
  /** Absent when the automation had none (and in every definition stored before goals existed). */
  goal?: Goal;
}

export const EXECUTION_STATUSES = ['RUNNING', 'WAITING', 'COMPLETED', 'EXITED', 'CONVERTED', 'FAILED', 'CANCELLED'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export const ACTIVE_STATUSES = ['RUNNING', 'WAITING'] as const satisfies readonly ExecutionStatus[];
export type EndStatus = Exclude<ExecutionStatus, 'RUNNING' | 'WAITING'>;

/** CONVERTED: the execution reached its goal while at the step, which ended there. */
export const STEP_STATUSES = ['RUNNING', 'WAITING', 'COMPLETED', 'CONVERTED', 'FAILED', 'CANCELLED'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** One step of an execution's history, as GET …/executions/{id} shows it. */
export interface StepHistoryEntry {
  stepId: string;
  type: StepType;
  name: string | null;
  status: StepStatus;
  startedAt: string;
  completedAt: string | null;
  /** What the step produced: the branch taken, the event received, the webhook's answer, … */
  output: Record<string, unknown> | null;
  error: string | null;
}
