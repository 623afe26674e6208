import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { ApiError, badRequest, conflict, notFound } from '../../http/errors';
import { callTemporal } from '../../temporal/unavailable';
import { historySummary } from '../../temporal/history';
import { cancelAutomation } from '../../temporal/automation';
import { normalizeEmail } from '../contacts/email';
import { withdrawEmails } from '../emails/withdraw';
import { Contact } from '../contacts/entities';
import { ACTIVE_STATUSES } from '../../../workflows/automation/definition';
import { AutomationExecution } from './entities';
import type { ListExecutionsQuery, StartExecutionBody } from './schemas';
import { resumeTimes } from './resume-times';
import { serializeExecution } from './serialize';
import { findAutomation } from './service';
import { startExecution } from './start';
import { offsetOf, pageOf } from '../../http/offset-page';

const isActive = (e: AutomationExecution) => (ACTIVE_STATUSES as readonly string[]).includes(e.status);

/** Executions with their contacts' emails and, for those waiting on a timer, when they resume, for responses. */
async function withContacts(em: EntityManager, executions: AutomationExecution[]) {
  const ids = [...new Set(executions.map((e) => e.contactId))];
  const [contacts, resumes] = await Promise.all([
    ids.length ? em.find(Contact, { id: { $in: ids } }, { fields: ['id', 'email'] }) : [],
    resumeTimes(
      em,
      executions.filter((e) => e.status === 'WAITING').map((e) => e.id),
    ),
  ]);
  const emails = new Map(contacts.map((c) => [c.id, c.email]));
  return executions.map((e) => serializeExecution(e, emails.get(e.contactId), resumes.get(e.id) ?? null));
}

export async function listExecutions(em: EntityManager, projectId: string, automationId: string, query: ListExecutionsQuery) {
  await findAutomation(em, projectId, automationId);
  const [rows, total] = await em.findAndCount(
    AutomationExecution,
    { automationId, ...(query.status ? { status: query.status } : {}) },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: query.pageSize, offset: offsetOf(query) },
  );
  return pageOf(await withContacts(em, rows), total, query);
}

async function findExecution(
  em: EntityManager,
  projectId: string,
  automationId: string,
  executionId: string,
): Promise<AutomationExecution> {
  await findAutomation(em, projectId, automationId);
  const execution = await em.findOne(AutomationExecution, { id: executionId, automationId, projectId });
  if (!execution) throw notFound('Execution');
  return execution;
}

export async function getExecution(em: EntityManager, projectId: string, automationId: string, executionId: string) {
  const [view] = await withContacts(em, [await findExecution(em, projectId, automationId, executionId)]);
  return view!;
}

async function executionById(em: EntityManager, projectId: string, executionId: string): Promise<AutomationExecution> {
  const execution = await em.findOne(AutomationExecution, { id: executionId, projectId });
  if (!execution) throw notFound('Execution');
  return execution;
}

/** GET /executions/{id}: an execution found by its id alone, whichever workflow it belongs to. */
export async function getExecutionById(em: EntityManager, projectId: string, executionId: string) {
  const [view] = await withContacts(em, [await executionById(em, projectId, executionId)]);
  return view!;
}

/** GET /executions/{id}/history: the Temporal history of the execution's run, summarized. */
export async function executionHistory(deps: Deps, em: EntityManager, projectId: string, executionId: string) {
  const execution = await executionById(em, projectId, executionId);
  const ids = { executionId, temporalWorkflowId: execution.temporalWorkflowId, temporalRunId: execution.temporalRunId ?? null };
  const events = await callTemporal('the history cannot be read', () =>
    historySummary(deps.temporal, execution.temporalWorkflowId, execution.temporalRunId ?? undefined),
  );
  return { ...ids, retained: events !== undefined, events: events ?? [] };
}

async function contactFor(em: EntityManager, projectId: string, body: StartExecutionBody): Promise<Contact> {
  const contact = await em.findOne(
    Contact,
    body.contactId ? { id: body.contactId, projectId } : { email: normalizeEmail(body.email!), projectId },
  );
  if (!contact) throw notFound('Contact', 'CONTACT_NOT_FOUND');
  return contact;
}

/** POST /workflows/{id}/executions: any enabled workflow, EVENT or MANUAL, for one contact, with a context. */
export async function startManually(deps: Deps, em: EntityManager, projectId: string, automationId: string, body: StartExecutionBody) {
  const automation = await findAutomation(em, projectId, automationId);
  if (!automation.enabled) throw badRequest('The workflow is disabled; enable it (PATCH enabled: true) to start executions');
  const contact = await contactFor(em, projectId, body);
  const outcome = await callTemporal('the execution was not started', () =>
    startExecution(deps, em, automation, contact, { context: body.context, onUnreachable: 'release' }),
  );
  if ('refused' in outcome) {
    const message =
      outcome.refused === 'ALREADY_ACTIVE'
        ? 'The contact already has an active execution of this workflow'
        : 'The contact has already entered this workflow, which does not allow re-entry';
    throw new ApiError(409, 'CONFLICT', message, { details: { reason: outcome.refused, activeExecutionId: outcome.activeExecutionId } });
  }
  const [view] = await withContacts(em, [outcome.started]);
  return view!;
}

const MARK_CANCELLED = `
update automation_executions set "status" = 'CANCELLED', "waiting_for" = null, "completed_at" = now(), "updated_at" = now()
where "id" = any(?::uuid[]) and "status" in ('RUNNING', 'WAITING')`;

const CANCEL_CONCURRENCY = 20;

/** The records become CANCELLED and, in the same transaction, their emails that have not left are withdrawn. */
async function markCancelled(em: EntityManager, ids: string[]): Promise<void> {
  await em.transactional(async (tx) => {
    await tx.execute(MARK_CANCELLED, [`{${ids.join(',')}}`]);
    await withdrawEmails(tx, { executionIds: ids });
  });
}

/**
 * Cancels the executions' workflows, then marks the records CANCELLED (the workflows mark them too, as they
 * stop) and withdraws their emails that have not left: once this returns, none of them begins or finishes an
 * SMTP transaction (an email a step queues meanwhile is withdrawn by the pump when it finds it). Temporal
 * unreachable: 503, and the executions not yet cancelled stay as they were.
 */
async function cancelAll(
  deps: Deps,
  em: EntityManager,
  executions: Array<Pick<AutomationExecution, 'id' | 'temporalWorkflowId'>>,
): Promise<void> {
  const cancelled: string[] = [];
  try {
    await callTemporal('some executions were not cancelled', async () => {
      for (let i = 0; i < executions.length; i += CANCEL_CONCURRENCY) {
        await Promise.all(
          executions.slice(i, i + CANCEL_CONCURRENCY).map(async (e) => {
            await cancelAutomation(deps.temporal, e.temporalWorkflowId);
            cancelled.push(e.id);
          }),
        );
      }
    });
  } finally {
    if (cancelled.length) await markCancelled(em, cancelled);
  }
}

export async function cancelExecution(deps: Deps, em: EntityManager, projectId: string, automationId: string, executionId: string) {
  const execution = await findExecution(em, projectId, automationId, executionId);
  if (!isActive(execution)) throw conflict(`The execution is ${execution.status}; only RUNNING or WAITING executions can be cancelled`);
  await cancelAll(deps, em, [execution]);
  await em.refresh(execution);
  const [view] = await withContacts(em, [execution]);
  return view!;
}

export async function cancelAllExecutions(
  deps: Deps,
  em: EntityManager,
  projectId: string,
  automationId: string,
): Promise<{ cancelled: number }> {
  await findAutomation(em, projectId, automationId);
  const active = await em.find(
    AutomationExecution,
    { automationId, status: { $in: [...ACTIVE_STATUSES] } },
    { fields: ['id', 'temporalWorkflowId'] },
  );
  await cancelAll(deps, em, active);
  return { cancelled: active.length };
}
