import type { Answer } from '../../api/types';
import { dateTime } from '../../ui/format';

export type ActivityItem = Answer<'/activity', 'get'>['data'][number];
export type ActivityType = ActivityItem['type'];

/** The feed's types in the API's order (docs/activity.md "Types"), with how a person names them. */
export const ACTIVITY_LABELS: Record<ActivityType, string> = {
  SENT: 'Sent',
  DELIVERED: 'Delivered',
  OPENED: 'Opened',
  CLICKED: 'Clicked',
  BOUNCED: 'Bounced',
  COMPLAINED: 'Complaint',
  RECEIVED: 'Received',
  SUPPRESSED: 'Suppressed',
  DEFERRED: 'Deferred',
  FAILED: 'Failed',
};

export const ACTIVITY_TYPES = Object.keys(ACTIVITY_LABELS) as ActivityType[];

export const toneOf = (type: ActivityType) =>
  type === 'DEFERRED'
    ? 'warn'
    : type === 'BOUNCED' || type === 'COMPLAINED' || type === 'FAILED' || type === 'SUPPRESSED'
      ? 'bad'
      : type === 'OPENED' || type === 'CLICKED'
        ? 'good'
        : 'neutral';

/**
 * The one line of detail worth showing per type: the link clicked, the bounce's kind, the suppression's reason,
 * when a deferred email is tried again and why the server put it off, the failure.
 */
export function detailOf(item: ActivityItem): string | null {
  const d = item.details;
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  if (item.type === 'CLICKED') return text(d.link);
  if (item.type === 'BOUNCED') return text(d.bounceType);
  if (item.type === 'SUPPRESSED') return text(d.reason);
  if (item.type === 'DEFERRED') {
    const retry = text(d.retryAt);
    const reason = text(d.reason);
    const attempt = typeof d.attempt === 'number' ? `attempt ${d.attempt}` : null;
    return [retry ? `Will retry at ${dateTime(retry)}` : 'Will retry', [attempt, reason].filter(Boolean).join(': ')]
      .filter(Boolean)
      .join('; ');
  }
  if (item.type === 'FAILED') return text(d.error);
  return null;
}
