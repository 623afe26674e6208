import type { EntityManager } from '@mikro-orm/postgresql';
import type { TemplateUsageSource } from '../templates/usage';
import { filterFields } from '../usage/filter-tree';
import { filterFieldOf, type ReferenceSource, type Subject } from '../usage/references';
import { Automation, AutomationStep } from './entities';

/** Workflows whose SEND_EMAIL steps send the template (GET /templates/{id}/usage; template DELETE is 409 while any does). */
export const workflowTemplateUsage: TemplateUsageSource = async (em, projectId, templateId) => {
  const rows = await em.execute<Array<{ id: string; name: string }>>(
    `select distinct a."id", a."name" from automation_steps s join automations a on a."id" = s."automation_id"
     where a."project_id" = ? and s."type" = 'SEND_EMAIL' and s."config" ->> 'templateId' = ?`,
    [projectId, templateId],
  );
  return { workflows: rows };
};

/** Whether a step names the subject: CONDITION filters, WAIT_FOR_EVENT's event, UPDATE_CONTACT's data keys. */
function stepReferences(step: AutomationStep, subject: Subject): boolean {
  const config = step.config;
  switch (step.type) {
    case 'CONDITION':
      return filterFields(config).includes(filterFieldOf(subject));
    case 'WAIT_FOR_EVENT':
      return subject.kind === 'event' && config.eventName === subject.name;
    case 'UPDATE_CONTACT': {
      const data = (config.data ?? {}) as Record<string, unknown>;
      return subject.kind === 'field' && subject.field.startsWith('data.') && Object.hasOwn(data, subject.field.slice('data.'.length));
    }
    default:
      return false;
  }
}

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
          steps.some((s) => s.automationId === a.id && stepReferences(s, subject)),
      )
      .map((a) => ({ id: a.id, name: a.name }));
  },
};
