import type { EntityManager } from '@mikro-orm/postgresql';
import type { Project } from '../projects/entities';
import { ProjectSuspension } from './entities';
import type { SecurityResponse } from './schemas';

const WINDOW_DAYS = 30;
const RECENT_SUSPENSIONS = 10;

/** In % of sent email; the levels mainstream mailbox providers and relays act on (docs/security.md). */
export const THRESHOLDS = {
  bounceRate: { warning: 5, critical: 10 },
  complaintRate: { warning: 0.1, critical: 0.5 },
} as const;

const level = (rate: number, t: { warning: number; critical: number }) =>
  rate >= t.critical ? 'critical' : rate >= t.warning ? 'warning' : 'healthy';

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10000) / 100);

/**
 * Sending health over the last 30 days, counted from the service events (`email.sent`, `email.bounce` that is
 * not Transient, `email.complaint`), which the delivery records with each status change of an email.
 */
export async function securityState(em: EntityManager, project: Project): Promise<SecurityResponse> {
  const to = new Date();
  const from = new Date(to.getTime() - WINDOW_DAYS * 24 * 60 * 60 * 1000);
  const [counts] = await em.execute<Array<{ sent: number; bounced: number; complained: number }>>(
    `select
       count(*) filter (where name = 'email.sent')::int as sent,
       count(*) filter (where name = 'email.bounce' and coalesce(data->>'bounceType', '') <> 'Transient')::int as bounced,
       count(*) filter (where name = 'email.complaint')::int as complained
     from events
     where project_id = ? and created_at >= ? and name in ('email.sent', 'email.bounce', 'email.complaint')`,
    [project.id, from],
  );
  const { sent, bounced, complained } = counts!;
  const suspensions = await em.find(
    ProjectSuspension,
    { projectId: project.id },
    { orderBy: { startedAt: 'desc' }, limit: RECENT_SUSPENSIONS },
  );
  const bounceRate = percent(bounced, sent);
  const complaintRate = percent(complained, sent);
  return {
    projectId: project.id,
    disabled: project.disabled,
    disabledReason: project.disabled ? (project.disabledReason ?? null) : null,
    window: { days: WINDOW_DAYS, from: from.toISOString(), to: to.toISOString() },
    sent,
    bounced,
    complained,
    bounceRate,
    complaintRate,
    levels: { bounce: level(bounceRate, THRESHOLDS.bounceRate), complaint: level(complaintRate, THRESHOLDS.complaintRate) },
    thresholds: THRESHOLDS,
    suspensions: suspensions.map((s) => ({
      reason: s.reason ?? null,
      startedAt: s.startedAt.toISOString(),
      endedAt: s.endedAt ? s.endedAt.toISOString() : null,
    })),
  };
}
