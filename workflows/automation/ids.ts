/** Names of the automation workflow, shared by the workflow and the code that starts and signals it. */
import type { Definition, EndStatus } from './definition';

/**
 * One contact's execution of an automation. A contact's first entry is `automation:<workflowId>:<contactId>`;
 * where re-entry allows later ones, each gets its ordinal as a suffix (`…:2`, `…:3`). Each ID is used once
 * (REJECT_DUPLICATE), so Temporal too refuses a second first entry and a repeated start of the same entry.
 */
export const automationWorkflowId = (automationId: string, contactId: string, entry: number) =>
  `automation:${automationId}:${contactId}${entry === 1 ? '' : `:${entry}`}`;

export const automationSummary = (automationName: string, contactEmail: string) => `${automationName}: ${contactEmail}`;

export const AUTOMATION_EVENT_SIGNAL = 'automationEvent';

/**
 * Sent to the contact's running executions whose definition's goal the event reaches (its name, and its data
 * matching the goal's filter, judged by the sender): the execution ends CONVERTED, if within its window.
 */
export const AUTOMATION_GOAL_SIGNAL = 'automationGoal';

/**
 * Sent to the executions whose emails waited while their project was suspended, once it is reinstated
 * (src/modules/reputation): a SEND_EMAIL step held by the suspension goes on at once rather than at its next
 * check (HOLD_RECHECK).
 */
export const PROJECT_REINSTATED_SIGNAL = 'projectReinstated';

/**
 * Sent by `POST /workflows/{id}/versions/{v}/migrate` to an execution waiting at `fromStepId` of version v: the run
 * takes `definition` (the latest version) and continues at its step `toStepId`, if it still waits at `fromStepId`
 * when the signal comes (docs/automations.md "Versions").
 */
export const MIGRATE_VERSION_SIGNAL = 'migrateVersion';

export interface VersionMigration {
  definition: Definition;
  fromStepId: string;
  toStepId: string;
}

/** How often a SEND_EMAIL step held by a suspension asks again, should the reinstatement's signal not come. */
export const HOLD_RECHECK = '10 minutes';

/** A tracked event of the contact, handed to executions waiting for its name (WAIT_FOR_EVENT). */
export interface AutomationEvent {
  id: string;
  name: string;
  data: Record<string, unknown>;
  /** ISO timestamp; a wait counts events from when its step began. */
  createdAt: string;
}

export interface AutomationInput {
  executionId: string;
  projectId: string;
  automationId: string;
  contactId: string;
  /** The snapshot stored on the execution when it started. */
  definition: Definition;
  context: Record<string, unknown>;
}

/** How the run ended; `GONE` when its execution record disappeared (contact or project deleted). */
export interface AutomationResult {
  status: EndStatus | 'GONE';
  steps: number;
}

/** Failure types of the automation activities that the workflow tells apart. */
export const EXECUTION_GONE = 'ExecutionGone';
export const STEP_FAILED = 'StepFailed';
