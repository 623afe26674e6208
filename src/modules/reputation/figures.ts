import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { countedRows } from '../emails/counted';

/** The deployment's reputation settings (docs/security.md, docs/settings.md). */
export type ReputationSettings = Pick<Config, 'REPUTATION_WINDOW_DAYS' | 'REPUTATION_MIN_SENT' | 'REPUTATION_COUNT_SIMULATED'>;

/** In % of sent email; the levels mainstream mailbox providers and relays act on (docs/security.md). */
export const THRESHOLDS = {
  bounceRate: { warning: 5, critical: 10 },
  complaintRate: { warning: 0.1, critical: 0.5 },
} as const;

export type Level = 'healthy' | 'warning' | 'critical';

export const levelOf = (rate: number, t: { warning: number; critical: number }): Level =>
  rate >= t.critical ? 'critical' : rate >= t.warning ? 'warning' : 'healthy';

/** `part` in % of `whole`, two decimals; 0 when nothing was sent. */
export const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10000) / 100);

export interface ReputationFigures {
  projectId: string;
  /** The window's days, its start (a whole UTC hour: the rollup counts by hour) and its end (now). */
  window: { days: number; from: Date; to: Date };
  /** Emails that left in the window, bounced ones included. */
  sent: number;
  /** Permanent bounces in the window. */
  bounced: number;
  complained: number;
  bounceRate: number;
  complaintRate: number;
  levels: { bounce: Level; complaint: Level };
  /** Simulated emails sent in the window and left out of the figures above (0 when REPUTATION_COUNT_SIMULATED). */
  simulatedLeftOut: number;
  /** Emails sent since the last reinstatement, while that still holds automatic suspension back; null otherwise. */
  sentSinceReinstatement: number | null;
}

const HOUR_MS = 3600_000;

/** The window ending now, its start on the hour, as email_stats counts. */
export function windowOf(settings: ReputationSettings, now = new Date()): { days: number; from: Date; to: Date } {
  const start = now.getTime() - settings.REPUTATION_WINDOW_DAYS * 24 * HOUR_MS;
  return { days: settings.REPUTATION_WINDOW_DAYS, from: new Date(start - (start % HOUR_MS)), to: now };
}

interface FiguresRow {
  project_id: string;
  sent: number;
  bounced: number;
  complained: number;
  simulated: number;
  grace_hour: Date | null;
  since_grace: number;
}

// Reads the email_stats rollup (migrations 0024, 0040): one row per hour, category and campaign of the window,
// never the emails. `counted` leaves simulated mail out unless the deployment counts it; the grace sum runs
// from the hour of the last reinstatement, less what that hour had sent before it.
const figuresSql = (where: string, having = '') => `
with k as (select ?::timestamptz as "from")
select p."id" as "project_id",
  coalesce(sum(s."sent") filter (where s."hour" >= k."from" and s."counted"), 0)::float8 as "sent",
  coalesce(sum(s."hard_bounced") filter (where s."hour" >= k."from" and s."counted"), 0)::float8 as "bounced",
  coalesce(sum(s."complained") filter (where s."hour" >= k."from" and s."counted"), 0)::float8 as "complained",
  coalesce(sum(s."sent") filter (where s."hour" >= k."from" and not s."counted"), 0)::float8 as "simulated",
  p."reputation_grace_hour" as "grace_hour",
  (coalesce(sum(s."sent") filter (where s."hour" >= p."reputation_grace_hour" and s."counted"), 0) - p."reputation_grace_base")::float8
    as "since_grace"
from k cross join projects p
left join lateral (select x.*, ${countedRows('x')} as "counted" from email_stats x
  where x."project_id" = p."id" and x."hour" >= least(k."from", p."reputation_grace_hour")) s on true
where ${where}
group by p."id", k."from"${having}`;

function figuresOf(row: FiguresRow, window: ReputationFigures['window']): ReputationFigures {
  const bounceRate = percent(row.bounced, row.sent);
  const complaintRate = percent(row.complained, row.sent);
  return {
    projectId: row.project_id,
    window,
    sent: row.sent,
    bounced: row.bounced,
    complained: row.complained,
    bounceRate,
    complaintRate,
    levels: { bounce: levelOf(bounceRate, THRESHOLDS.bounceRate), complaint: levelOf(complaintRate, THRESHOLDS.complaintRate) },
    simulatedLeftOut: row.simulated,
    sentSinceReinstatement: row.grace_hour === null ? null : row.since_grace,
  };
}

/** One project's figures over the window ending now (docs/security.md); null for an unknown project. */
export async function reputationOf(em: EntityManager, settings: ReputationSettings, projectId: string): Promise<ReputationFigures | null> {
  const window = windowOf(settings);
  const [row] = await em.execute<FiguresRow[]>(figuresSql('p."id" = ?'), [window.from, settings.REPUTATION_COUNT_SIMULATED, projectId]);
  return row ? figuresOf(row, window) : null;
}

/** The figures of these projects (the operators' list). */
export async function figuresOfProjects(em: EntityManager, settings: ReputationSettings, ids: string[]): Promise<ReputationFigures[]> {
  const window = windowOf(settings);
  const rows = await em.execute<FiguresRow[]>(figuresSql('p."id" = any(?::uuid[])'), [
    window.from,
    settings.REPUTATION_COUNT_SIMULATED,
    `{${ids.join(',')}}`,
  ]);
  return rows.map((row) => figuresOf(row, window));
}

/**
 * The figures of every enabled project that sent at least REPUTATION_MIN_SENT emails in the window: those the
 * periodic check judges, in one statement over the window's rollup rows.
 */
export async function judgeableProjects(em: EntityManager, settings: ReputationSettings): Promise<ReputationFigures[]> {
  const window = windowOf(settings);
  const rows = await em.execute<FiguresRow[]>(
    figuresSql(
      'not p."disabled" and p."id" in (select "project_id" from email_stats where "hour" >= k."from")',
      ' having coalesce(sum(s."sent") filter (where s."hour" >= k."from" and s."counted"), 0) >= ?',
    ),
    [window.from, settings.REPUTATION_COUNT_SIMULATED, settings.REPUTATION_MIN_SENT],
  );
  return rows.map((row) => figuresOf(row, window));
}
