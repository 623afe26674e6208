import type { EntityManager } from '@mikro-orm/postgresql';
import type { TemplateUsageSource } from '../templates/usage';
import { Campaign } from './entities';

/** GET /templates/{id}/usage: campaigns whose content was taken from the template. */
export const campaignTemplateUsage: TemplateUsageSource = async (em: EntityManager, projectId, templateId) => {
  const campaigns = await em.find(Campaign, { projectId, templateId }, { fields: ['id', 'name'], orderBy: { createdAt: 'desc' } });
  return { campaigns: campaigns.map((c) => ({ id: c.id, name: c.name })) };
};
