import { z } from 'zod';
import { resourceId } from '../../http/resource-id';
import { offsetPage } from '../../http/offset-page';
import { FIELD_TYPES } from '../contacts/entities';
import {
  BRANCHES,
  EXECUTION_STATUSES,
  OUTCOMES,
  STEP_STATUSES,
  TRIGGER_TYPES,
  type StepType,
} from '../../../workflows/automation/definition';
import { STEP_CONFIG_OUTPUTS, STEP_CONFIGS, STEP_TYPES } from './step-types';
import { EventName } from './step-types/limits';
import { GoalBody, GoalResponse } from './goal';

export const MAX_PAGE_SIZE = 100;

const workflowId = resourceId('WORKFLOW_NOT_FOUND');
export const WorkflowIdParams = z.object({ id: workflowId });
export const StepParams = z.object({ id: workflowId, stepId: z.uuid() });
export const TransitionParams = z.object({ id: workflowId, transitionId: z.uuid() });
export const ExecutionParams = z.object({ id: workflowId, executionId: z.uuid() });
export const VersionParams = z.object({
  id: workflowId,
  version: z.coerce.number().int().min(1).max(2_147_483_647).describe('The version number, 1 for the first'),
});

const Name = z
  .string()
  .trim()
  .min(1, 'name is required')
  .max(255)
  .regex(/^[^\r\n\u0000]*$/, 'Must not contain line breaks');
const Description = z.string().max(5000);
const StepName = Name.describe('A label for the step, shown in summaries');

const page = z.coerce.number().int().min(1).default(1);
const pageSize = z.coerce.number().int().min(1).max(MAX_PAGE_SIZE, `pageSize is at most ${MAX_PAGE_SIZE}`).default(20);

export const ListWorkflowsQuery = z.object({
  page,
  pageSize,
  search: z.string().max(200).optional().describe('Case-insensitive substring of the name'),
  enabled: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});
export type ListWorkflowsQuery = z.infer<typeof ListWorkflowsQuery>;

export const CreateWorkflowBody = z.object({
  name: Name,
  description: Description.nullish(),
  eventName: EventName.describe('The event that starts an execution; any tracked or service event (contact.*, email.*, segment.*)'),
  allowReentry: z
    .boolean()
    .default(false)
    .describe('false: a contact enters at most once, ever; true: at most one active execution at a time'),
  goal: GoalBody.nullish().describe(
    'Reaching it ends an execution CONVERTED wherever it stands (docs/automations.md "Goals"); null or absent: none',
  ),
});
export type CreateWorkflowBody = z.infer<typeof CreateWorkflowBody>;

export const UpdateWorkflowBody = z.object({
  name: Name.optional(),
  description: Description.nullish().describe('null clears it'),
  triggerType: z.enum(TRIGGER_TYPES).optional().describe('MANUAL workflows start only through POST /workflows/{id}/executions'),
  triggerConfig: z.object({ eventName: EventName.optional() }).optional().describe('EVENT: { eventName } (kept when omitted); MANUAL: {}'),
  enabled: z.boolean().optional().describe('Enabling checks that the steps form a single-rooted acyclic graph (400 otherwise)'),
  allowReentry: z.boolean().optional(),
  goal: GoalBody.nullish().describe('Replaced whole; null removes it. Executions already running keep the goal they started with'),
});
export type UpdateWorkflowBody = z.infer<typeof UpdateWorkflowBody>;

const stepBody = (type: StepType) => {
  const config: z.ZodType = STEP_CONFIGS[type];
  return z.object({ type: z.literal(type), name: StepName.nullish(), config: config.prefault({}) });
};

export const AddStepBody = z.discriminatedUnion(
  'type',
  STEP_TYPES.map((t) => stepBody(t)) as unknown as [ReturnType<typeof stepBody>, ...Array<ReturnType<typeof stepBody>>],
  { error: `type must be one of ${STEP_TYPES.join(', ')}` },
);
export type AddStepBody = { type: StepType; name?: string | null; config: unknown };

export const UpdateStepBody = z.object({
  name: StepName.nullish().describe('null clears it'),
  config: z.unknown().optional().meta({ description: "The step's config, replaced whole and checked as for its type" }),
});
export type UpdateStepBody = z.infer<typeof UpdateStepBody>;

export const DeleteStepQuery = z.object({
  splice: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe("true reconnects the step's incoming transitions to the step its single outgoing transition led to"),
});

export const AddTransitionBody = z.object({
  fromStepId: z.uuid(),
  toStepId: z.uuid(),
  branch: z
    .enum(BRANCHES)
    .nullish()
    .describe('Required from a CONDITION step (yes, no) and a RANDOM_SPLIT step (A to its last branch), refused from others'),
  outcome: z.enum(OUTCOMES).nullish().describe('From a WAIT_FOR_EVENT step (default EVENT); TIMEOUT needs a timeout on the step'),
});
export type AddTransitionBody = z.infer<typeof AddTransitionBody>;

export const StartExecutionBody = z
  .object({
    contactId: z.uuid().optional(),
    email: z.email().max(320).optional().describe('Instead of contactId: the contact with this email'),
    context: z.record(z.string(), z.json()).default({}).describe('Per-execution variables for templates, CONDITION steps and webhooks'),
  })
  .refine((b) => (b.contactId === undefined) !== (b.email === undefined), {
    message: 'Give exactly one of contactId and email',
    path: ['contactId'],
  });
export type StartExecutionBody = z.infer<typeof StartExecutionBody>;

export const ListExecutionsQuery = z.object({
  status: z.enum(EXECUTION_STATUSES, { error: `status must be one of ${EXECUTION_STATUSES.join(', ')}` }).optional(),
  page,
  pageSize,
});
export type ListExecutionsQuery = z.infer<typeof ListExecutionsQuery>;

export const StepResponse = z.object({
  id: z.uuid(),
  workflowId: z.uuid(),
  type: z.enum(STEP_TYPES),
  name: z.string().nullable(),
  config: z.union(STEP_TYPES.map((t) => STEP_CONFIG_OUTPUTS[t]) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type StepResponse = z.infer<typeof StepResponse>;

export const TransitionResponse = z.object({
  id: z.uuid(),
  workflowId: z.uuid(),
  fromStepId: z.uuid(),
  toStepId: z.uuid(),
  branch: z.enum(BRANCHES).nullable(),
  outcome: z.enum(OUTCOMES).nullable(),
  createdAt: z.iso.datetime(),
});
export type TransitionResponse = z.infer<typeof TransitionResponse>;

export const WorkflowResponse = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  triggerType: z.enum(TRIGGER_TYPES),
  triggerConfig: z.object({ eventName: z.string().optional() }),
  enabled: z.boolean(),
  allowReentry: z.boolean(),
  webhookSecret: z.string().describe('Key of the X-Postwire-Signature HMAC-SHA256 that WEBHOOK steps send'),
  goal: GoalResponse.nullable().describe('Reaching it ends an execution CONVERTED; null: none'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type WorkflowResponse = z.infer<typeof WorkflowResponse>;

export const WorkflowDetailResponse = WorkflowResponse.extend({
  steps: z.array(StepResponse),
  transitions: z.array(TransitionResponse),
});

export const WorkflowPage = offsetPage(WorkflowResponse);

export const HistoryEntryResponse = z.object({
  stepId: z.uuid(),
  type: z.enum(STEP_TYPES),
  name: z.string().nullable(),
  status: z.enum(STEP_STATUSES),
  startedAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
  output: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
});

export const ExecutionResponse = z.object({
  id: z.uuid(),
  workflowId: z.uuid(),
  contactId: z.uuid(),
  contact: z.object({ id: z.uuid(), email: z.string() }).nullable(),
  status: z.enum(EXECUTION_STATUSES),
  currentStepId: z.uuid().nullable(),
  currentStep: z.object({ id: z.uuid(), type: z.enum(STEP_TYPES), name: z.string().nullable() }).nullable(),
  waitingFor: z.string().nullable().describe('The event a WAIT_FOR_EVENT step awaits'),
  resumesAt: z.iso
    .datetime()
    .nullable()
    .describe(
      "While WAITING: when the execution moves on by itself, the end of its DELAY or the timeout of its WAIT_FOR_EVENT, counted from when the step began (for a DELAY until a local time, the instant decided from the contact's time zone as it began to wait); null otherwise (running, ended, or waiting for an event without a timeout)",
    ),
  context: z.record(z.string(), z.unknown()),
  stepHistory: z.array(HistoryEntryResponse),
  exitReason: z.string().nullable(),
  error: z.string().nullable(),
  entry: z.number().int().describe("The contact's entry into the workflow, 1 for the first"),
  triggerEventId: z.uuid().nullable(),
  version: z
    .number()
    .int()
    .nullable()
    .describe(
      "The workflow's version the execution runs (GET /workflows/{id}/versions): the one it started with, or the one it was migrated to; null for executions of no version",
    ),
  temporalWorkflowId: z.string(),
  temporalRunId: z.string().nullable(),
  startedAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
  updatedAt: z.iso.datetime(),
});
export type ExecutionResponse = z.infer<typeof ExecutionResponse>;

export const ExecutionPage = offsetPage(ExecutionResponse);

export const ExecutionIdParams = z.object({ id: z.uuid() });

export const ExecutionHistoryResponse = z.object({
  executionId: z.uuid(),
  temporalWorkflowId: z.string(),
  temporalRunId: z.string().nullable(),
  retained: z.boolean().describe('False when Temporal no longer keeps the run (past the namespace retention); events is then empty'),
  events: z
    .array(
      z.object({
        eventId: z.number().int(),
        at: z.iso.datetime(),
        type: z.string().describe('The Temporal event type: ActivityTaskScheduled, TimerStarted, WorkflowExecutionSignaled, …'),
        summary: z.string().describe('What happened, in words, with the summary the workflow gave its timer or activity'),
      }),
    )
    .describe("The run's events oldest first, without the SDK's bookkeeping (workflow tasks, markers)"),
});

export const CancelAllResponse = z.object({ cancelled: z.number().int().describe('Executions that were RUNNING or WAITING') });

export const FIELD_CATEGORIES = ['contact', 'emailActivity', 'event', 'eventData'] as const;

export const WorkflowFieldsResponse = z.object({
  fields: z.array(
    z.object({
      field: z.string().describe('As a filter names it: email, data.plan, email.opened, event.signup, event.amount'),
      type: z.enum([...FIELD_TYPES, 'event']).describe('event: use the triggered* operators'),
      category: z
        .enum(FIELD_CATEGORIES)
        .describe(
          "contact: contact fields; emailActivity and event: the triggered* operators over the contact's history; eventData: a key of event data, read from the execution context by value operators",
        ),
      isCustom: z.boolean(),
      eventNames: z.array(z.string()).optional().describe('eventData: the events whose data carried the key'),
    }),
  ),
});
export type WorkflowFieldsResponse = z.infer<typeof WorkflowFieldsResponse>;

const Count = z.number().int().min(0);
const ExecutionCounts = Object.fromEntries(EXECUTION_STATUSES.map((s) => [s, Count])) as Record<
  (typeof EXECUTION_STATUSES)[number],
  typeof Count
>;

export const WorkflowStatsResponse = z.object({
  workflowId: z.uuid(),
  executions: z
    .object({ total: Count, ...ExecutionCounts })
    .describe('Every execution of the workflow (each entry of a contact), by its status now'),
  steps: z
    .array(
      z.object({
        stepId: z.uuid(),
        type: z.enum(STEP_TYPES),
        name: z.string().nullable(),
        entered: Count.describe('Executions that reached the step: waiting + left + converted + failed + cancelled'),
        waiting: Count.describe('Executions at the step now (RUNNING or WAITING there: a DELAY, a WAIT_FOR_EVENT, a WEBHOOK being called)'),
        left: Count.describe('Executions that completed the step: went on to the next one, or ended after it'),
        converted: Count.describe("Executions that reached the workflow's goal while at the step, which ended them there"),
        goalReached: Count.describe(
          'Executions that entered the step and reached the goal, there or at a later step: the conversions of its path',
        ),
        failed: Count.describe('Executions that failed at the step'),
        cancelled: Count.describe('Executions cancelled while at the step'),
        branches: z
          .array(
            z.object({
              branch: z.enum(BRANCHES),
              taken: Count,
              goalReached: Count.describe('Of those that took it, how many reached the goal'),
            }),
          )
          .nullable()
          .describe('CONDITION (yes, no) and RANDOM_SPLIT (A to its last branch): how many left by each; null for other steps'),
        outcomes: z
          .array(
            z.object({
              outcome: z.enum(OUTCOMES),
              taken: Count,
              goalReached: Count.describe('Of those that took it, how many reached the goal'),
            }),
          )
          .nullable()
          .describe('WAIT_FOR_EVENT: how many left on the event and on the timeout; null for other steps'),
      }),
    )
    .describe('The steps of the workflow as it is now, in the order they were added'),
});
export type WorkflowStatsResponse = z.infer<typeof WorkflowStatsResponse>;

export const ListVersionsQuery = z.object({ page, pageSize });
export type ListVersionsQuery = z.infer<typeof ListVersionsQuery>;

const VersionResponse = z.object({
  number: z.number().int().describe('1 for the first version, then 2, 3, …'),
  latest: z.boolean().describe('The version executions starting now run'),
  createdAt: z.iso.datetime().describe('When it was published: the workflow enabled, or its graph edited while enabled'),
  running: Count.describe('Executions of this version RUNNING now'),
  waiting: Count.describe('Executions of this version WAITING now: those a migration can move'),
  steps: z.array(
    z.object({
      id: z.uuid(),
      type: z.enum(STEP_TYPES),
      name: z.string().nullable(),
      config: StepResponse.shape.config,
    }),
  ),
  transitions: z.array(
    z.object({ fromStepId: z.uuid(), toStepId: z.uuid(), branch: z.enum(BRANCHES).nullable(), outcome: z.enum(OUTCOMES).nullable() }),
  ),
});
export const VersionPage = offsetPage(VersionResponse);
export type VersionPage = z.infer<typeof VersionPage>;

export const MigrateBody = z.object({
  map: z
    .record(z.uuid(), z.uuid())
    .refine((m) => Object.keys(m).length > 0, 'map names at least one step')
    .refine((m) => Object.keys(m).length <= 500, 'map names at most 500 steps')
    .describe('For each step of the old version where executions may wait, the step of the latest version they continue at'),
});
export type MigrateBody = z.infer<typeof MigrateBody>;

export const MigrateResponse = z.object({
  fromVersion: z.number().int(),
  toVersion: z.number().int().describe('The latest version'),
  migrated: Count.describe('Executions WAITING at a mapped step, signalled to continue at its mapped step of the latest version'),
  skipped: z.object({
    running: Count.describe('RUNNING (between steps, or calling a webhook): not at a point of rest'),
    unmapped: Count.describe('WAITING at a step the map does not name'),
    ended: Count.describe('Found WAITING, but their workflow had ended by the time of the signal'),
  }),
});
export type MigrateResponse = z.infer<typeof MigrateResponse>;
