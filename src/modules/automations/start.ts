import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { newId } from '../../db/columns';
import { executePrepared } from '../../db/prepared';
import { startAutomation } from '../../temporal/automation';
import { automationSummary, automationWorkflowId } from '../../../workflows/automation/ids';
import { ACTIVE_STATUSES, type Definition } from '../../../workflows/automation/definition';
import { AutomationExecution, type Automation } from './entities';
import { firstStep } from '../../../workflows/automation/entry';
import { firstStop } from '../../../workflows/automation/interpreter';
import { publishedDefinitionOf } from './snapshots';

/** Why a contact may not enter (docs/automations.md "Starting"). */
export type EntryRefusal = 'ALREADY_ENTERED' | 'ALREADY_ACTIVE';

export type StartOutcome = { started: AutomationExecution } | { refused: EntryRefusal; activeExecutionId: string | null };

export interface StartOptions {
  context: Record<string, unknown>;
  /** The event that triggered it: a second hand-off of the same event finds the same execution. */
  triggerEventId?: string;
  /** Aborts the Temporal call (the outbox's hand-off timeout). */
  signal?: AbortSignal;
  /**
   * When Temporal cannot be reached: `release` deletes the new record (the API answers 503, nothing changed);
   * `keep` leaves it for the retried hand-off, which starts the same execution.
   */
  onUnreachable: 'release' | 'keep';
}

interface EntryContact {
  id: string;
  email: string;
}

type Claim = { execution: AutomationExecution; fresh: boolean } | { refused: EntryRefusal; activeExecutionId: string | null };

const PRIOR = `
select coalesce(max("entry"), 0)::int as entries,
       (array_agg("id") filter (where "status" in ('RUNNING', 'WAITING')))[1] as active
from automation_executions where "automation_id" = ? and "contact_id" = ?`;

// The contact's next entry, in one statement: none while one is active, none after the first without re-entry,
// and none again for an event that already made one.
const ENTER = `
insert into automation_executions ("id", "created_at", "updated_at", "project_id", "automation_id", "contact_id", "entry",
  "reentry", "trigger_event_id", "status", "current_step_id", "step_started_at", "context", "definition", "temporal_workflow_id")
select ?, now(), now(), ?, ?, ?, p.entries + 1, ?, ?, 'RUNNING', ?, ?, ?::jsonb, ?::jsonb,
  ? || case when p.entries = 0 then '' else ':' || (p.entries + 1) end
from (${PRIOR}) p
where p.active is null and (?::boolean or p.entries = 0)
on conflict ("automation_id", "trigger_event_id") do nothing
returning *`;

/**
 * Records the contact's next entry, or says why there is none. Entries of one contact into one automation
 * are serialised by an advisory lock (so a refusal is an answer, not a constraint error); the constraints of
 * migration 0018 hold whatever happens.
 */
async function claimEntry(
  em: EntityManager,
  automation: Automation,
  contact: EntryContact,
  definition: Definition,
  options: StartOptions,
): Promise<Claim> {
  return em.transactional(async (tx) => {
    await executePrepared(tx, 'automation_entry_lock', 'select pg_advisory_xact_lock(hashtextextended(?, 0))', [
      `automation-entry:${automation.id}:${contact.id}`,
    ]);
    const first = firstStep(definition);
    const [row] = await executePrepared<Record<string, unknown>>(tx, 'automation_enter', ENTER, [
      newId(),
      automation.projectId,
      automation.id,
      contact.id,
      automation.allowReentry,
      options.triggerEventId ?? null,
      first.kind === 'step' ? first.step.id : null,
      new Date(),
      JSON.stringify(options.context),
      JSON.stringify(definition),
      automationWorkflowId(automation.id, contact.id, 1),
      automation.id,
      contact.id,
      automation.allowReentry,
    ]);
    if (row) return { execution: tx.map(AutomationExecution, row), fresh: true };
    if (options.triggerEventId) {
      const again = await tx.findOne(AutomationExecution, { automationId: automation.id, triggerEventId: options.triggerEventId });
      if (again) return { execution: again, fresh: false };
    }
    const [prior] = await tx.execute<Array<{ entries: number; active: string | null }>>(PRIOR, [automation.id, contact.id]);
    return prior?.active
      ? { refused: 'ALREADY_ACTIVE', activeExecutionId: prior.active }
      : { refused: 'ALREADY_ENTERED', activeExecutionId: null };
  });
}

/** Starts the Temporal workflow of an execution just recorded (or found again for its trigger event). */
function startWorkflow(deps: Deps, execution: AutomationExecution, automation: Automation, contact: EntryContact, signal?: AbortSignal) {
  return startAutomation(
    deps.temporal,
    {
      workflowId: execution.temporalWorkflowId,
      summary: automationSummary(automation.name, contact.email),
      currentStepId: firstStop(execution.definition),
      input: {
        executionId: execution.id,
        projectId: execution.projectId,
        automationId: automation.id,
        contactId: contact.id,
        definition: execution.definition,
        context: execution.context,
      },
    },
    signal,
  );
}

/**
 * Starts `contact`'s execution of `automation` with a snapshot of its current definition: the record first
 * (which enforces re-entry), then its Temporal workflow. Safe to repeat for the same trigger event.
 */
export async function startExecution(
  deps: Deps,
  em: EntityManager,
  automation: Automation,
  contact: EntryContact,
  options: StartOptions,
): Promise<StartOutcome> {
  const definition = await publishedDefinitionOf(em, automation);
  const claim = await claimEntry(em, automation, contact, definition, options);
  if ('refused' in claim) return claim;
  const { execution } = claim;
  if (!(ACTIVE_STATUSES as readonly string[]).includes(execution.status)) return { started: execution };
  try {
    await startWorkflow(deps, execution, automation, contact, options.signal);
  } catch (err) {
    if (claim.fresh && options.onUnreachable === 'release') await em.nativeDelete(AutomationExecution, { id: execution.id });
    throw err;
  }
  return { started: execution };
}

/** An event that triggers an automation for a contact. */
export interface TriggeredEntry {
  automation: Automation;
  contact: EntryContact;
  event: { id: string; data: Record<string, unknown> };
}

// The entries of a batch of trigger events, each as ENTER decides one (the first entry, later ones where re-entry
// allows, none while one is active, none again for an event that already made one), in one statement.
const ENTER_BATCH = `
insert into automation_executions ("id", "created_at", "updated_at", "project_id", "automation_id", "contact_id", "entry",
  "reentry", "trigger_event_id", "status", "current_step_id", "step_started_at", "context", "definition", "temporal_workflow_id")
select r."id", now(), now(), r."project_id", r."automation_id", r."contact_id", p.entries + 1, r."reentry", r."trigger_event_id", 'RUNNING',
  r."current_step_id", now(), r."context", r."definition",
  r."workflow_id" || case when p.entries = 0 then '' else ':' || (p.entries + 1) end
from jsonb_to_recordset(?::jsonb) as r("id" uuid, "project_id" uuid, "automation_id" uuid, "contact_id" uuid, "reentry" boolean,
  "trigger_event_id" uuid, "current_step_id" uuid, "context" jsonb, "definition" jsonb, "workflow_id" text)
cross join lateral (
  select coalesce(max("entry"), 0)::int as entries, (array_agg("id") filter (where "status" in ('RUNNING', 'WAITING')))[1] as active
  from automation_executions x where x."automation_id" = r."automation_id" and x."contact_id" = r."contact_id") p
where p.active is null and (r."reentry" or p.entries = 0)
on conflict ("automation_id", "trigger_event_id") do nothing
returning *`;

// Executions these trigger events made on an earlier hand-off, still active: their workflows are started again (a no-op if running).
const ENTERED_BEFORE = `
select x.* from automation_executions x join jsonb_to_recordset(?::jsonb) as r("automation_id" uuid, "trigger_event_id" uuid)
  on x."automation_id" = r."automation_id" and x."trigger_event_id" = r."trigger_event_id"
where x."status" in ('RUNNING', 'WAITING')`;

/**
 * The outbox's batch of triggered entries, recorded in one transaction (the entry locks of all its contacts,
 * taken in one order, then one statement), then each one's workflow started: what startExecution does per
 * entry, in four round trips for the whole batch. Refusals (re-entry) start nothing. Answers the trigger
 * events whose workflow could not be started, with why; their records stay for the retried hand-off.
 */
export async function startTriggered(
  deps: Deps,
  em: EntityManager,
  entries: TriggeredEntry[],
  signal?: AbortSignal,
): Promise<Map<string, string>> {
  const failures = new Map<string, string>();
  if (entries.length === 0) return failures;
  const definitions = new Map<string, Definition>();
  for (const { automation } of entries)
    if (!definitions.has(automation.id)) definitions.set(automation.id, await publishedDefinitionOf(em, automation));
  const rows = entries.map(({ automation, contact, event }) => {
    const definition = definitions.get(automation.id)!;
    const first = firstStep(definition);
    return {
      id: newId(),
      project_id: automation.projectId,
      automation_id: automation.id,
      contact_id: contact.id,
      reentry: automation.allowReentry,
      trigger_event_id: event.id,
      current_step_id: first.kind === 'step' ? first.step.id : null,
      context: event.data,
      definition,
      workflow_id: automationWorkflowId(automation.id, contact.id, 1),
    };
  });
  const recorded = await em.transactional(async (tx) => {
    await executePrepared(
      tx,
      'automation_entry_locks',
      'select count(pg_advisory_xact_lock(k)) from (select distinct hashtextextended(k, 0) as k from unnest(?::text[]) as u(k) order by 1) s',
      [`{${entries.map(({ automation, contact }) => `"automation-entry:${automation.id}:${contact.id}"`).join(',')}}`],
    );
    const fresh = await executePrepared<Record<string, unknown>>(tx, 'automation_enter_batch', ENTER_BATCH, [JSON.stringify(rows)]);
    const before = await executePrepared<Record<string, unknown>>(tx, 'automation_entered_before', ENTERED_BEFORE, [
      JSON.stringify(rows.map((r) => ({ automation_id: r.automation_id, trigger_event_id: r.trigger_event_id }))),
    ]);
    const seen = new Set(fresh.map((r) => r.id));
    return [...fresh, ...before.filter((r) => !seen.has(r.id))].map((r) => tx.map(AutomationExecution, r));
  });
  const byKey = new Map(entries.map((e) => [`${e.automation.id}:${e.event.id}`, e]));
  const start = async (execution: AutomationExecution) => {
    const entry = byKey.get(`${execution.automationId}:${execution.triggerEventId}`)!;
    try {
      await startWorkflow(deps, execution, entry.automation, entry.contact, signal);
    } catch (err) {
      failures.set(entry.event.id, err instanceof Error ? err.message : String(err));
    }
  };
  // Each project's first execution starts before the rest of the batch: a quiet project's one execution does
  // not wait for the Temporal server to take a busy project's hundred (docs/automations.md "Fairness").
  const firsts = new Map<string, AutomationExecution>();
  for (const execution of recorded) if (!firsts.has(execution.projectId)) firsts.set(execution.projectId, execution);
  await Promise.all([...firsts.values()].map(start));
  await Promise.all(recorded.filter((x) => firsts.get(x.projectId) !== x).map(start));
  return failures;
}
