import type { EntityManager } from '@mikro-orm/postgresql';
import { isTimeZone } from '../../../local-time';
import { Project } from '../../projects/entities';
import type { LiveExecution } from '../records';

/**
 * The time zone of the execution's contact for local times of day (docs/automations.md "Local times"): its
 * `data.timezone` when that is an IANA zone, else the project's `timeZone`.
 */
export async function contactTimeZone(em: EntityManager, live: LiveExecution): Promise<string> {
  const own = live.contact.data.timezone;
  if (typeof own === 'string' && isTimeZone(own)) return own;
  const project = await em.findOne(Project, { id: live.execution.projectId }, { fields: ['timeZone'] });
  return project?.timeZone ?? 'UTC';
}
