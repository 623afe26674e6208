import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { newId } from '../../db/columns';
import { startAutomation } from '../../../workflows/automation/lifecycle';
import { automationSummary, automationWorkflowId } from '../../../workflows/automation/ids';
import type { Contact } from '../contacts/entities';
import { ACTIVE_STATUSES, type Definition } from './definition';
import { AutomationExecution, type Automation } from './entities';
import { invalidGraph } from './errors';
import { graphProblems } from './graph';
import { firstStep } from './interpreter';
import { loadGraph, snapshotOf } from './service';

/** Why a contact may not enter (decisions.md "allowReentry"). */
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

type Claim = { execution: AutomationExecution; fresh: boolean } | { refused: EntryRefusal; activeExecutionId: string | null };

const PRIOR = `
select coalesce(max("entry"), 0)::int as entries,
       (array_agg("id") filter (where "status" in ('RUNNING', 'WAITING')))[1] as active
from automation_executions where "automation_id" = ? and "contact_id" = ?`;

/**
 * Records the contact's next entry, or says why there is none. Entries of one contact into one automation
 * are serialised by an advisory lock; the constraints of migration 0018 hold whatever happens.
 */
async function claimEntry(em: EntityManager, automation: Automation, contact: Contact, definition: Definition, options: StartOptions): Promise<Claim> {
  return em.transactional(async (tx) => {
    if (options.triggerEventId) {
      const again = await tx.findOne(AutomationExecution, { automationId: automation.id, triggerEventId: options.triggerEventId });
      if (again) return { execution: again, fresh: false };
    }
    await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`automation-entry:${automation.id}:${contact.id}`]);
    const [prior] = await tx.execute<Array<{ entries: number; active: string | null }>>(PRIOR, [automation.id, contact.id]);
    if (prior?.active) return { refused: 'ALREADY_ACTIVE', activeExecutionId: prior.active };
    if (!automation.allowReentry && (prior?.entries ?? 0) > 0) return { refused: 'ALREADY_ENTERED', activeExecutionId: null };
    const entry = (prior?.entries ?? 0) + 1;
    const first = firstStep(definition);
    const execution = tx.create(AutomationExecution, {
      id: newId(),
      projectId: automation.projectId,
      automationId: automation.id,
      contactId: contact.id,
      entry,
      reentry: automation.allowReentry,
      triggerEventId: options.triggerEventId ?? null,
      status: 'RUNNING',
      currentStepId: first.kind === 'step' ? first.step.id : null,
      stepStartedAt: new Date(),
      waitingFor: null,
      context: options.context,
      definition,
      history: [],
      exitReason: null,
      error: null,
      temporalWorkflowId: automationWorkflowId(automation.id, contact.id, entry),
      temporalRunId: null,
      seq: 0,
      completedAt: null,
    });
    return { execution, fresh: true };
  });
}

/**
 * Starts `contact`'s execution of `automation` with a snapshot of its current definition: the record first
 * (which enforces re-entry), then its Temporal workflow. Safe to repeat for the same trigger event.
 */
export async function startExecution(deps: Deps, em: EntityManager, automation: Automation, contact: Contact, options: StartOptions): Promise<StartOutcome> {
  const graph = await loadGraph(em, automation.id);
  const problems = graphProblems(graph.steps, graph.transitions);
  if (problems.length) throw invalidGraph('The workflow cannot run', problems);
  const definition = snapshotOf(automation, graph);
  const claim = await claimEntry(em, automation, contact, definition, options);
  if ('refused' in claim) return claim;
  const { execution } = claim;
  if (!(ACTIVE_STATUSES as readonly string[]).includes(execution.status)) return { started: execution };
  const first = firstStep(execution.definition);
  try {
    await startAutomation(
      deps.temporal,
      {
        workflowId: execution.temporalWorkflowId,
        summary: automationSummary(automation.name, contact.email),
        firstStepId: first.kind === 'step' ? first.step.id : null,
        input: {
          executionId: execution.id,
          projectId: execution.projectId,
          automationId: automation.id,
          contactId: contact.id,
          definition: execution.definition,
          context: execution.context,
        },
      },
      options.signal,
    );
  } catch (err) {
    if (claim.fresh && options.onUnreachable === 'release') await em.nativeDelete(AutomationExecution, { id: execution.id });
    throw err;
  }
  return { started: execution };
}
