import type { EntityManager } from '@mikro-orm/postgresql';
import type { Project } from '../projects/entities';
import { THRESHOLDS, reputationOf, type ReputationSettings } from '../reputation/figures';
import { heldEmailCount } from '../reputation/suspension';
import { ProjectSuspension } from './entities';
import type { SecurityResponse } from './schemas';

const RECENT_SUSPENSIONS = 10;

/** Sending health over the reputation window (docs/security.md), as the guardrails judge it. */
export async function securityState(em: EntityManager, settings: ReputationSettings, project: Project): Promise<SecurityResponse> {
  const figures = (await reputationOf(em, settings, project.id))!;
  const suspensions = await em.find(
    ProjectSuspension,
    { projectId: project.id },
    { orderBy: { startedAt: 'desc' }, limit: RECENT_SUSPENSIONS },
  );
  return {
    projectId: project.id,
    disabled: project.disabled,
    disabledReason: project.disabled ? (project.disabledReason ?? null) : null,
    window: { days: figures.window.days, from: figures.window.from.toISOString(), to: figures.window.to.toISOString() },
    sent: figures.sent,
    bounced: figures.bounced,
    complained: figures.complained,
    bounceRate: figures.bounceRate,
    complaintRate: figures.complaintRate,
    levels: figures.levels,
    thresholds: THRESHOLDS,
    minSent: settings.REPUTATION_MIN_SENT,
    simulated: { counted: settings.REPUTATION_COUNT_SIMULATED, leftOut: figures.simulatedLeftOut },
    heldEmails: project.disabled ? await heldEmailCount(em, project.id) : 0,
    suspensions: suspensions.map((s) => ({
      reason: s.reason ?? null,
      by: s.by,
      startedAt: s.startedAt.toISOString(),
      endedAt: s.endedAt ? s.endedAt.toISOString() : null,
    })),
  };
}
