import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseColumns, insertedColumns } from '../../db/columns';
import type { Definition, Goal, StepHistoryEntry, StepType } from '../../../workflows/automation/definition';
import { BRANCHES, EXECUTION_STATUSES, TRIGGER_TYPES, type TriggerConfig } from '../../../workflows/automation/definition';

export const Automation = defineEntity({
  name: 'Automation',
  tableName: 'automations',
  properties: {
    ...baseColumns,
    projectId: p.uuid(),
    name: p.string(),
    description: p.text().nullable(),
    triggerType: p.enum([...TRIGGER_TYPES]),
    triggerConfig: p.json<TriggerConfig>(),
    enabled: p.boolean().default(false),
    allowReentry: p.boolean().default(false),
    /** Signs WEBHOOK requests (HMAC-SHA256); sealed with ENCRYPTION_KEY. */
    webhookSecret: p.text(),
    /** Reaching it ends an execution CONVERTED (migration 0120); snapshotted into each execution's definition. */
    goal: p.json<Goal>().nullable(),
    /** Counts edits of the steps and transitions (migration 0019). */
    graphVersion: p.integer().default(0),
    /** The latest published version (automation_versions.number), 0 before the first (migration 0130). */
    version: p.integer().default(0),
  },
});
export type Automation = InferEntity<typeof Automation>;

export const AutomationStep = defineEntity({
  name: 'AutomationStep',
  tableName: 'automation_steps',
  properties: {
    ...baseColumns,
    automationId: p.uuid(),
    /** Checked where steps are written (step-types/), so a new type needs no migration (0031). */
    type: p.string().$type<StepType>(),
    name: p.string().nullable(),
    config: p.json<Record<string, unknown>>(),
  },
});
export type AutomationStep = InferEntity<typeof AutomationStep>;

export const AutomationTransition = defineEntity({
  name: 'AutomationTransition',
  tableName: 'automation_transitions',
  properties: {
    ...insertedColumns,
    automationId: p.uuid(),
    fromStepId: p.uuid(),
    toStepId: p.uuid(),
    branch: p.enum([...BRANCHES]).nullable(),
    outcome: p.enum(['EVENT', 'TIMEOUT'] as const).nullable(),
  },
});
export type AutomationTransition = InferEntity<typeof AutomationTransition>;

/** A graph that went live: enabling an automation, or an edit of an enabled one (docs/automations.md "Versions"). */
export const AutomationVersion = defineEntity({
  name: 'AutomationVersion',
  tableName: 'automation_versions',
  properties: {
    ...insertedColumns,
    automationId: p.uuid(),
    number: p.integer(),
    graph: p.json<Pick<Definition, 'steps' | 'transitions'>>(),
  },
});
export type AutomationVersion = InferEntity<typeof AutomationVersion>;

export const AutomationExecution = defineEntity({
  name: 'AutomationExecution',
  tableName: 'automation_executions',
  properties: {
    ...baseColumns,
    projectId: p.uuid(),
    automationId: p.uuid(),
    contactId: p.uuid(),
    /** The contact's entry into the automation: 1 for the first (see migration 0018). */
    entry: p.integer(),
    /** Whether re-entry was allowed when it started. */
    reentry: p.boolean(),
    triggerEventId: p.uuid().nullable(),
    status: p.enum([...EXECUTION_STATUSES]),
    currentStepId: p.uuid().nullable(),
    /** When the current step began, in database time; WAIT_FOR_EVENT looks back to it. */
    stepStartedAt: p.datetime(),
    /** When a DELAY `until` a local time ends, decided as the step was marked WAITING; null for other waits. */
    resumesAt: p.datetime().nullable(),
    /** The event name a WAIT_FOR_EVENT step awaits while WAITING. */
    waitingFor: p.string().nullable(),
    context: p.json<Record<string, unknown>>(),
    /** The definition as it was when the execution started; the execution runs this. */
    definition: p.json<Definition>(),
    history: p.json<StepHistoryEntry[]>(),
    exitReason: p.text().nullable(),
    error: p.text().nullable(),
    temporalWorkflowId: p.string(),
    temporalRunId: p.string().nullable(),
    /** Writes of the workflow's mirror, in order; a stale (retried) write never overwrites a newer one. */
    seq: p.integer().default(0),
    completedAt: p.datetime().nullable(),
  },
});
export type AutomationExecution = InferEntity<typeof AutomationExecution>;
