import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { newId } from '../../db/columns';
import { badRequest, conflict } from '../../http/errors';
import { ACTIVE_STATUSES } from '../../../workflows/automation/definition';
import { Automation, AutomationExecution } from './entities';
import { invalidGraph, workflowNotFound } from './errors';
import { graphProblems } from '../../../workflows/automation/graph';
import type { CreateWorkflowBody, ListWorkflowsQuery, UpdateWorkflowBody } from './schemas';
import { sealedNewWebhookSecret } from './webhook/secret';
import { checkedGoal } from './goal';
import { containsPattern } from '../../db/keyset';
import { loadGraph } from './graphs';
import { publishVersion } from './publish';
import { offsetOf, pageOf } from '../../http/offset-page';

export async function findAutomation(em: EntityManager, projectId: string, id: string, lock = false): Promise<Automation> {
  const automation = await em.findOne(Automation, { id, projectId }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!automation) throw workflowNotFound();
  return automation;
}

export async function listAutomations(em: EntityManager, projectId: string, query: ListWorkflowsQuery) {
  const where = {
    projectId,
    ...(query.search ? { name: { $ilike: containsPattern(query.search) } } : {}),
    ...(query.enabled === undefined ? {} : { enabled: query.enabled }),
  };
  const [data, total] = await em.findAndCount(Automation, where, {
    orderBy: { createdAt: 'desc', id: 'desc' },
    limit: query.pageSize,
    offset: offsetOf(query),
  });
  return pageOf(data, total, query);
}

export async function createAutomation(deps: Deps, em: EntityManager, projectId: string, body: CreateWorkflowBody): Promise<Automation> {
  const id = newId();
  const automation = em.create(Automation, {
    id,
    projectId,
    name: body.name,
    description: body.description ?? null,
    triggerType: 'EVENT',
    triggerConfig: { eventName: body.eventName },
    enabled: false,
    allowReentry: body.allowReentry,
    goal: body.goal ? await checkedGoal(body.goal) : null,
    webhookSecret: sealedNewWebhookSecret(deps.config, id),
  });
  await em.flush();
  return automation;
}

function applyTrigger(automation: Automation, body: UpdateWorkflowBody): void {
  const type = body.triggerType ?? automation.triggerType;
  if (type === 'MANUAL') {
    if (body.triggerConfig?.eventName !== undefined) {
      throw badRequest('A MANUAL workflow has no eventName; set triggerType EVENT to start it from an event', {
        errors: [{ field: 'triggerConfig.eventName', message: 'Not used by MANUAL workflows', code: 'invalid_trigger' }],
      });
    }
    automation.triggerType = 'MANUAL';
    automation.triggerConfig = {};
    return;
  }
  const eventName = body.triggerConfig?.eventName ?? automation.triggerConfig.eventName;
  if (!eventName) {
    throw badRequest('An EVENT workflow needs triggerConfig.eventName', {
      errors: [{ field: 'triggerConfig.eventName', message: 'eventName is required for triggerType EVENT', code: 'invalid_trigger' }],
    });
  }
  automation.triggerType = 'EVENT';
  automation.triggerConfig = { eventName };
}

/** One transaction holding the row, so that enabling checks the graph that is actually saved. */
export async function updateAutomation(em: EntityManager, projectId: string, id: string, body: UpdateWorkflowBody): Promise<Automation> {
  return em.transactional(async (tx) => {
    const automation = await findAutomation(tx, projectId, id, true);
    if (body.name !== undefined) automation.name = body.name;
    if (body.description !== undefined) automation.description = body.description;
    if (body.triggerType !== undefined || body.triggerConfig !== undefined) applyTrigger(automation, body);
    if (body.allowReentry !== undefined) automation.allowReentry = body.allowReentry;
    if (body.goal !== undefined) automation.goal = body.goal === null ? null : await checkedGoal(body.goal);
    if (body.enabled === true && !automation.enabled) {
      const graph = await loadGraph(tx, id);
      const problems = graphProblems(graph.steps, graph.transitions);
      if (problems.length) throw invalidGraph('The workflow cannot be enabled', problems);
      await publishVersion(tx, automation);
    }
    if (body.enabled !== undefined) automation.enabled = body.enabled;
    await tx.flush();
    return automation;
  });
}

export const countActive = (em: EntityManager, automationId: string) =>
  em.count(AutomationExecution, { automationId, status: { $in: [...ACTIVE_STATUSES] } });

/** docs/automations.md "Status codes": 409 while executions are active; otherwise the workflow goes with its steps and executions. */
export async function deleteAutomation(em: EntityManager, projectId: string, id: string): Promise<void> {
  await em.transactional(async (tx) => {
    const automation = await findAutomation(tx, projectId, id, true);
    const active = await countActive(tx, id);
    if (active > 0) {
      throw conflict(
        `The workflow has ${active} active execution(s); cancel them (POST /workflows/{id}/executions/cancel-all) or let them finish first`,
        {
          activeExecutions: active,
        },
      );
    }
    tx.remove(automation);
  });
}
