import type { EntityManager } from '@mikro-orm/postgresql';
import { isTimeZone } from '../../../local-time';
import { Project } from '../../projects/entities';
import type { LiveExecution } from '../records';

/**
 * The time zone of the execution's contact for local times of day (docs/automations.md "Local times"): its
 * `data.timezone` when that is an IANA zone, else the project's `timeZone`.
 */
export async function contactTimeZone(em: EntityManager, live: LiveExecution): Promise<string> {
  const own = ownZone(live.contact.data.timezone);
  if (own !== null) return own;
  const project = await em.findOne(Project, { id: live.execution.projectId }, { fields: ['timeZone'] });
  return project?.timeZone ?? 'UTC';
}

/** A contact's `data.timezone` when it is an IANA zone, else null (the project's zone applies). */
const ownZone = (value: unknown): string | null => (typeof value === 'string' && isTimeZone(value) ? value : null);

const EXECUTION_ZONE = `
select c."data" ->> 'timezone' as "own", p."time_zone" as "project"
from automation_executions x join contacts c on c."id" = x."contact_id" join projects p on p."id" = x."project_id"
where x."id" = ?`;

/** The same zone for an execution as its record stands, before a step writes to it; null when it is gone. */
export async function executionTimeZone(em: EntityManager, executionId: string): Promise<string | null> {
  const [row] = await em.execute<Array<{ own: string | null; project: string }>>(EXECUTION_ZONE, [executionId]);
  if (!row) return null;
  return ownZone(row.own) ?? row.project;
}
