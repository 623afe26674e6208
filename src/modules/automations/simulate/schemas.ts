import { z } from 'zod';
import { BRANCHES, EXECUTION_STATUSES, OUTCOMES, STEP_STATUSES } from '../../../../workflows/automation/definition';
import { ContactData } from '../../contacts/schemas';
import { Email } from '../../users/schemas';
import { STEP_TYPES } from '../step-types';
import { EventName } from '../step-types/limits';
import { MAX_SIMULATED_MS, OFFSET_PATTERN, offsetMs } from './duration';
import { GoalBody } from '../goal';

/** The request and answer of POST /workflows/{id}/simulate (docs/simulation.md). */

const Offset = (what: string) =>
  z
    .string()
    .regex(OFFSET_PATTERN, `${what} is "<n> minutes", "<n> hours" or "<n> days"`)
    .refine((s) => offsetMs(s) <= MAX_SIMULATED_MS, `${what} is at most 400 days`);

const EventData = z.record(z.string(), z.json());
const StepId = z.string().trim().min(1).max(100);

const DraftStep = z.object({
  id: StepId.describe('Chosen by the caller; transitions, expect and webhookResponses name steps by it'),
  type: z.enum(STEP_TYPES),
  name: z.string().trim().min(1).max(255).nullish(),
  config: z.unknown().meta({ description: "The step's config, checked as the steps endpoints check it" }),
});

const DraftTransition = z.object({
  fromStepId: StepId,
  toStepId: StepId,
  branch: z.enum(BRANCHES).nullish(),
  outcome: z.enum(OUTCOMES).nullish().describe('From a WAIT_FOR_EVENT step (default EVENT)'),
});

export const SimulationDefinition = z.object({
  steps: z.array(DraftStep).max(200),
  transitions: z.array(DraftTransition).max(400).default([]),
  goal: GoalBody.nullish().describe("The draft's goal; null: none; absent: the workflow's own"),
});
export type SimulationDefinition = z.infer<typeof SimulationDefinition>;

const Expectation = z.object({
  stepId: StepId,
  reached: z.boolean().optional(),
  branch: z.enum(BRANCHES).optional(),
  outcome: z.enum(OUTCOMES).optional(),
  status: z.enum(STEP_STATUSES).optional().describe("The step's status at the end of the simulation"),
});

export const SimulateBody = z
  .object({
    contact: z
      .object({
        email: Email.optional().describe('Default contact@example.com'),
        subscribed: z.boolean().default(true),
        data: ContactData.default({}),
      })
      .optional()
      .describe('A hypothetical contact (the default when neither contact nor contactId is given)'),
    contactId: z
      .uuid()
      .optional()
      .describe('A contact of the project, read and never changed; its stored events count for CONDITION steps'),
    trigger: z
      .object({ event: EventName, data: EventData.default({}) })
      .optional()
      .describe('The event that starts the execution; its data is the context'),
    events: z
      .array(z.object({ after: Offset('after'), event: EventName, data: EventData.default({}) }))
      .max(100)
      .default([])
      .describe('Events the contact tracks, each at its offset from the start of the execution'),
    context: EventData.default({}).describe("A manual start's context, merged over the trigger's data"),
    definition: SimulationDefinition.optional().describe("An unsaved graph to simulate instead of the workflow's own steps"),
    until: Offset('until').optional().describe('Stop after this long (default: when the execution ends, at most 400 days)'),
    webhookResponses: z
      .record(StepId, z.object({ status: z.number().int().min(100).max(599), body: z.json().optional() }))
      .default({})
      .describe('What each WEBHOOK step is answered, by step id (default 200)'),
    expect: z.array(Expectation).max(200).optional().describe('Assertions; the answer then adds passed and failures'),
  })
  .refine((b) => b.contact === undefined || b.contactId === undefined, {
    message: 'Give at most one of contact and contactId',
    path: ['contactId'],
  });
export type SimulateBody = z.infer<typeof SimulateBody>;

const Duration = z.string().describe('ISO 8601 duration from the start of the execution, e.g. P30DT2H');
const ContactState = z.object({ subscribed: z.boolean(), data: z.record(z.string(), z.unknown()) });

const SimulatedStep = z.object({
  stepId: z.string(),
  type: z.enum(STEP_TYPES),
  name: z.string().nullable(),
  status: z.enum(STEP_STATUSES),
  startedAfter: Duration,
  endedAfter: Duration.nullable(),
  outcome: z.enum(OUTCOMES).optional(),
  branch: z.enum(BRANCHES).optional(),
  error: z.string().optional(),
  email: z
    .object({ to: z.string(), from: z.string(), subject: z.string(), html: z.string(), text: z.string().nullable() })
    .optional()
    .describe('SEND_EMAIL: the email as it would be sent'),
  skipped: z.literal('FREQUENCY_CAPPED').optional().describe("SEND_EMAIL: no email, the project's frequency cap held it back (onCap skip)"),
  webhook: z
    .object({
      method: z.string(),
      url: z.string(),
      headers: z.record(z.string(), z.string()),
      body: z.unknown(),
      response: z.object({ status: z.number().int(), body: z.unknown() }),
    })
    .optional()
    .describe('WEBHOOK: the request as it would be sent, and the simulated answer'),
  contact: ContactState.optional().describe('UPDATE_CONTACT: the contact after the step'),
});

const Failure = z.object({
  stepId: z.string(),
  field: z.enum(['reached', 'branch', 'outcome', 'status']),
  expected: z.unknown(),
  actual: z.unknown(),
});

export const SimulationResponse = z.object({
  status: z
    .enum(EXECUTION_STATUSES)
    .describe('COMPLETED, EXITED, CONVERTED (an event reached the goal) or FAILED; WAITING or RUNNING when until came first'),
  endedAfter: Duration.nullable(),
  steps: z.array(SimulatedStep),
  contact: ContactState.describe('The contact at the end'),
  simulatedFor: Duration.describe('The virtual time the simulation covered'),
  wallMs: z.number().int(),
  passed: z.boolean().optional(),
  failures: z.array(Failure).optional(),
});
export type SimulationResponse = z.infer<typeof SimulationResponse>;
export type SimulatedStep = z.infer<typeof SimulatedStep>;
export type ExpectationFailure = z.infer<typeof Failure>;
