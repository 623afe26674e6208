import type { EntityManager } from '@mikro-orm/postgresql';
import type { TemplateUsageSource } from '../templates/usage';
import type { TopicUsageSource } from '../topics/usage';
import type { ReferenceSource } from '../usage/references';
import { Automation, AutomationStep } from './entities';
import { stepReferences } from './step-types';

/** Workflows with a SEND_EMAIL step whose config names `id` under `key`. */
const sendEmailStepsNaming = async (em: EntityManager, projectId: string, key: 'templateId' | 'topicId', id: string) => ({
  workflows: await em.execute<Array<{ id: string; name: string }>>(
    `select distinct a."id", a."name" from automation_steps s join automations a on a."id" = s."automation_id"
     where a."project_id" = ? and s."type" = 'SEND_EMAIL' and s."config" ->> '${key}' = ?`,
    [projectId, id],
  ),
});

/** Workflows whose SEND_EMAIL steps send the template (GET /templates/{id}/usage; template DELETE is 409 while any does). */
export const workflowTemplateUsage: TemplateUsageSource = (em, projectId, templateId) =>
  sendEmailStepsNaming(em, projectId, 'templateId', templateId);

/** Workflows whose SEND_EMAIL steps are about the topic (DELETE /topics/{id} is 409 while any is). */
export const workflowTopicUsage: TopicUsageSource = (em, projectId, topicId) => sendEmailStepsNaming(em, projectId, 'topicId', topicId);

/** Workflows that reference a field or event: triggers, WAIT_FOR_EVENT steps, CONDITION filters, contact updates. */
export const workflowReferences: ReferenceSource = {
  area: 'workflows',
  async find(em: EntityManager, projectId, subject) {
    const automations = await em.find(Automation, { projectId }, { orderBy: { createdAt: 'desc' } });
    if (automations.length === 0) return [];
    const steps = await em.find(AutomationStep, { automationId: { $in: automations.map((a) => a.id) } });
    return automations
      .filter(
        (a) =>
          (subject.kind === 'event' && a.triggerType === 'EVENT' && a.triggerConfig.eventName === subject.name) ||
          steps.some((s) => s.automationId === a.id && stepReferences(s.type, s.config, subject)),
      )
      .map((a) => ({ id: a.id, name: a.name }));
  },
};
