import type { EntityManager } from '@mikro-orm/postgresql';
import type { TemplateUsageSource } from '../templates/usage';
import type { TopicUsageSource } from '../topics/usage';
import { filterFields } from '../usage/filter-tree';
import { filterFieldOf, type ReferenceSource } from '../usage/references';
import { Campaign } from './entities';

/** GET /templates/{id}/usage: campaigns whose content was taken from the template. */
export const campaignTemplateUsage: TemplateUsageSource = async (em: EntityManager, projectId, templateId) => {
  const campaigns = await em.find(Campaign, { projectId, templateId }, { fields: ['id', 'name'], orderBy: { createdAt: 'desc' } });
  return { campaigns: campaigns.map((c) => ({ id: c.id, name: c.name })) };
};

/** Campaigns whose filtered audience names the field or event. */
export const campaignReferences: ReferenceSource = {
  area: 'campaigns',
  async find(em, projectId, subject) {
    const wanted = filterFieldOf(subject);
    const campaigns = await em.find(Campaign, { projectId, audienceType: 'FILTERED' }, { orderBy: { createdAt: 'desc' } });
    return campaigns.filter((c) => filterFields(c.audienceCondition).includes(wanted)).map((c) => ({ id: c.id, name: c.name }));
  },
};

/** DELETE /topics/{id} is refused while a campaign not yet sent or cancelled is about the topic. */
export const campaignTopicUsage: TopicUsageSource = async (em, projectId, topicId) => {
  const campaigns = await em.find(
    Campaign,
    { projectId, topicId, status: { $in: ['DRAFT', 'SCHEDULED', 'SENDING'] } },
    { fields: ['id', 'name'], orderBy: { createdAt: 'desc' } },
  );
  return { campaigns: campaigns.map((c) => ({ id: c.id, name: c.name })) };
};
