import { ActivityFailure, ApplicationFailure, defineSignal } from '@temporalio/workflow';
import {
  AUTOMATION_EVENT_SIGNAL,
  AUTOMATION_GOAL_SIGNAL,
  EXECUTION_GONE,
  MIGRATE_VERSION_SIGNAL,
  PROJECT_REINSTATED_SIGNAL,
  type AutomationEvent,
  type VersionMigration,
} from './ids';
import { ExecutionGoneSignal } from './mirror';

/** What both versions of the automation workflow share: their signals, and how they read a step's failure. */

export const automationEvent = defineSignal<[AutomationEvent]>(AUTOMATION_EVENT_SIGNAL);
export const projectReinstated = defineSignal(PROJECT_REINSTATED_SIGNAL);
export const automationGoal = defineSignal<[AutomationEvent]>(AUTOMATION_GOAL_SIGNAL);
export const migrateVersion = defineSignal<[VersionMigration]>(MIGRATE_VERSION_SIGNAL);

/** The activity's own failure: wrapped in an ActivityFailure, or (local activities) as it is. */
const applicationFailure = (err: unknown) =>
  err instanceof ActivityFailure && err.cause instanceof ApplicationFailure
    ? err.cause
    : err instanceof ApplicationFailure
      ? err
      : undefined;

/** The execution record is gone or no longer active: the run ends quietly. */
export const isGone = (err: unknown) => err instanceof ExecutionGoneSignal || applicationFailure(err)?.type === EXECUTION_GONE;

/** The message of the failure that ended a step after its retries. */
export const failureMessage = (err: unknown) => applicationFailure(err)?.message ?? (err instanceof Error ? err.message : String(err));
