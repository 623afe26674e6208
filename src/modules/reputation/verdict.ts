import { THRESHOLDS, type Level, type ReputationFigures } from './figures';

/** What the guardrails do about a project's figures (docs/security.md "Automatic suspension"). */
export type Verdict =
  /** Too few emails to judge, or healthy rates. */
  | { action: 'none' }
  /** A rate at the warning level (or at the critical one while a reinstatement holds suspension back): tell the owners. */
  | { action: 'warn'; reason: string }
  /** A rate at the critical level: suspend, with this as the project's disabledReason. */
  | { action: 'suspend'; reason: string };

const RATES = [
  { name: 'Bounce', rate: 'bounceRate', level: 'bounce' },
  { name: 'Complaint', rate: 'complaintRate', level: 'complaint' },
] as const;

/** "Bounce rate 12.5% over 7 days is above the critical level of 10%". */
const sentence = (figures: ReputationFigures, r: (typeof RATES)[number], level: Exclude<Level, 'healthy'>) =>
  `${r.name} rate ${figures[r.rate]}% over ${figures.window.days} days is above the ${level} level of ${THRESHOLDS[r.rate][level]}%`;

/**
 * Judges a project: nothing until it sent `minSent` emails in the window; at the critical level of either rate
 * it is suspended (the bounce rate named first when both are), unless it was reinstated and has not sent
 * `minSent` emails since; at the warning level its owners are warned.
 */
export function verdictOf(figures: ReputationFigures, minSent: number): Verdict {
  if (figures.sent < minSent) return { action: 'none' };
  const critical = RATES.find((r) => figures.levels[r.level] === 'critical');
  const inGrace = figures.sentSinceReinstatement !== null && figures.sentSinceReinstatement < minSent;
  if (critical && !inGrace) return { action: 'suspend', reason: sentence(figures, critical, 'critical') };
  const raised = RATES.filter((r) => figures.levels[r.level] !== 'healthy');
  if (raised.length === 0) return { action: 'none' };
  return {
    action: 'warn',
    reason: raised.map((r) => `${sentence(figures, r, figures.levels[r.level] as 'warning' | 'critical')}.`).join(' '),
  };
}
