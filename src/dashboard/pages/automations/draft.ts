import type { Branch, StepType } from './types';
import { fromTree, newTree, toTree, type Tree, type TreeDraft } from '../../filters/model';

/** A step's settings as the side panel's inputs hold them (text), turned into the API's config on saving. */
export interface Draft {
  templateId: string;
  recipient: 'CONTACT' | 'CUSTOM';
  recipientEmail: string;
  /** A SEND_EMAIL about a topic (docs/consent.md); empty for none. */
  topicId: string;
  /** A SEND_EMAIL's quiet hours (HH:MM); both empty for none. */
  quietFrom: string;
  quietTo: string;
  /** A SEND_EMAIL over the project's frequency cap: wait (the default) or skip. */
  onCap: 'wait' | 'skip';
  amount: string;
  unit: 'minutes' | 'hours' | 'days';
  /** A DELAY's local time of day (HH:MM); empty for none. */
  until: string;
  eventName: string;
  timeoutAmount: string;
  timeoutUnit: 'minutes' | 'hours' | 'days';
  condition: TreeDraft;
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  updates: Array<{ key: string; value: string }>;
  subscribed: '' | 'true' | 'false';
  reason: string;
  /** A RANDOM_SPLIT's branches, A first. */
  splits: Array<{ weight: string; label: string }>;
}

const SPLIT_NAMES = ['A', 'B', 'C', 'D', 'E'] as const satisfies readonly Branch[];

/** A RANDOM_SPLIT's branches by name, with their shares in whole percents. */
export function splitsOf(config: Record<string, unknown>): Array<{ branch: Branch; share: number; label: string }> {
  const branches = Array.isArray(config.branches) ? (config.branches as Array<{ weight?: unknown; label?: unknown }>) : [];
  const weights = branches.map((b) => (typeof b.weight === 'number' ? b.weight : 0));
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  return branches.slice(0, SPLIT_NAMES.length).map((b, i) => ({
    branch: SPLIT_NAMES[i]!,
    share: Math.round((weights[i]! * 100) / total),
    label: typeof b.label === 'string' ? b.label : '',
  }));
}

const SECONDS = { minutes: 60, hours: 3_600, days: 86_400 } as const;
type Unit = keyof typeof SECONDS;

const text = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
const rec = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** A whole number of the largest unit that divides the seconds. */
function asDuration(seconds: unknown): { amount: string; unit: Unit } {
  if (typeof seconds !== 'number') return { amount: '', unit: 'days' };
  for (const unit of ['days', 'hours', 'minutes'] as const)
    if (seconds % SECONDS[unit] === 0) return { amount: String(seconds / SECONDS[unit]), unit };
  return { amount: String(seconds / 60), unit: 'minutes' };
}

/** A CONDITION's config is a filter tree (the API has checked it). */
const treeOf = (config: Record<string, unknown>): Tree | null =>
  (config.logic === 'AND' || config.logic === 'OR') && Array.isArray(config.groups) ? (config as unknown as Tree) : null;

/** A filter tree in a few words, for the graph: `data.plan equals pro or event.coupon equals VIP`. */
function describe(tree: Tree): string {
  const groups = tree.groups.map((g) => {
    const parts = [
      ...(g.filters ?? []).map((f) => [f.field, f.operator, text(f.value), f.unit ?? ''].filter((x) => x !== '').join(' ')),
      ...(g.conditions ? [`(${describe(g.conditions as Tree)})`] : []),
    ];
    return parts.length > 1 && tree.groups.length > 1 ? `(${parts.join(' and ')})` : parts.join(' and ');
  });
  return groups.join(` ${tree.logic.toLowerCase()} `);
}

export function draftOf(config: Record<string, unknown>): Draft {
  const recipient = rec(config.recipient);
  const timeout = asDuration(config.timeout);
  const tree = treeOf(config);
  return {
    templateId: text(config.templateId),
    recipient: recipient.type === 'CUSTOM' ? 'CUSTOM' : 'CONTACT',
    recipientEmail: text(recipient.email),
    topicId: text(config.topicId),
    quietFrom: text(rec(config.quietHours).from),
    quietTo: text(rec(config.quietHours).to),
    onCap: config.onCap === 'skip' ? 'skip' : 'wait',
    amount: text(config.amount),
    unit: (config.unit as Unit | undefined) ?? 'days',
    until: text(config.until),
    eventName: text(config.eventName),
    timeoutAmount: timeout.amount,
    timeoutUnit: timeout.unit,
    condition: tree ? fromTree(tree) : newTree(),
    url: text(config.url),
    method: (config.method as Draft['method'] | undefined) ?? 'POST',
    updates: Object.entries(rec(config.data)).map(([key, value]) => ({ key, value: text(value) })),
    subscribed: typeof config.subscribed === 'boolean' ? (String(config.subscribed) as 'true' | 'false') : '',
    reason: text(config.reason),
    splits: Array.isArray(config.branches)
      ? (config.branches as Array<Record<string, unknown>>).map((b) => ({ weight: text(b.weight), label: text(b.label) }))
      : [
          { weight: '50', label: '' },
          { weight: '50', label: '' },
        ],
  };
}

/** A number typed in a box, or the text itself so that the API names what is wrong with it. */
const num = (s: string): number | string => (s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : s);

/**
 * The config to send for the draft. Settings the panel does not edit (a WEBHOOK's headers and body) are kept
 * from `original`. A CONDITION is the filter builder's tree, its values typed as their fields.
 */
export function configFrom(type: StepType, d: Draft, original: Record<string, unknown>): Record<string, unknown> {
  switch (type) {
    case 'SEND_EMAIL':
      return {
        templateId: d.templateId,
        ...(d.recipient === 'CUSTOM' ? { recipient: { type: 'CUSTOM', email: d.recipientEmail } } : {}),
        ...(d.topicId ? { topicId: d.topicId } : {}),
        ...(d.quietFrom || d.quietTo ? { quietHours: { from: d.quietFrom, to: d.quietTo } } : {}),
        ...(d.onCap === 'skip' ? { onCap: 'skip' } : {}),
      };
    case 'DELAY':
      return {
        ...(d.amount.trim() === '' && d.until !== '' ? {} : { amount: num(d.amount), unit: d.unit }),
        ...(d.until === '' ? {} : { until: d.until }),
      };
    case 'WAIT_FOR_EVENT': {
      const amount = num(d.timeoutAmount);
      return {
        eventName: d.eventName,
        ...(d.timeoutAmount.trim() === '' ? {} : { timeout: typeof amount === 'number' ? amount * SECONDS[d.timeoutUnit] : amount }),
      };
    }
    case 'CONDITION':
      return toTree(d.condition, () => undefined);
    case 'WEBHOOK':
      return { ...original, url: d.url, method: d.method };
    case 'UPDATE_CONTACT':
      return {
        ...(d.updates.some((u) => u.key !== '')
          ? { data: Object.fromEntries(d.updates.filter((u) => u.key !== '').map((u) => [u.key, u.value])) }
          : {}),
        ...(d.subscribed === '' ? {} : { subscribed: d.subscribed === 'true' }),
      };
    case 'EXIT':
      return d.reason.trim() === '' ? {} : { reason: d.reason };
    case 'RANDOM_SPLIT':
      return { branches: d.splits.map((s) => ({ weight: num(s.weight), ...(s.label.trim() ? { label: s.label.trim() } : {}) })) };
  }
}

/** "1 minute", "2 hours": an amount of a unit, the unit singular for one. */
export const duration = (amount: string, unit: Unit) => `${amount} ${Number(amount) === 1 ? unit.slice(0, -1) : unit}`;

/** A step's settings in a few words, for its node in the graph. */
export function summary(type: StepType, config: Record<string, unknown>, templateName: (id: string) => string | undefined): string {
  const d = draftOf(config);
  switch (type) {
    case 'SEND_EMAIL':
      return `Template: ${templateName(d.templateId) ?? d.templateId}${d.recipient === 'CUSTOM' ? ` to ${d.recipientEmail}` : ''}${
        d.quietFrom && d.quietTo ? `, not from ${d.quietFrom} to ${d.quietTo}` : ''
      }${d.onCap === 'skip' ? ', skipped over the frequency cap' : ''}`;
    case 'DELAY': {
      const length = d.amount === '' ? '' : duration(d.amount, d.unit);
      return d.until === '' ? length : `${length ? `${length}, then ` : ''}until ${d.until} local time`;
    }
    case 'WAIT_FOR_EVENT':
      return `${d.eventName}${d.timeoutAmount ? `, at most ${duration(d.timeoutAmount, d.timeoutUnit)}` : ''}`;
    case 'CONDITION': {
      const tree = treeOf(config);
      return tree ? describe(tree) : '';
    }
    case 'WEBHOOK':
      return `${d.method} ${d.url}`;
    case 'UPDATE_CONTACT':
      return [
        ...d.updates.map((u) => `${u.key} = ${u.value}`),
        ...(d.subscribed ? [d.subscribed === 'true' ? 'subscribe' : 'unsubscribe'] : []),
      ].join(', ');
    case 'EXIT':
      return d.reason;
    case 'RANDOM_SPLIT':
      return splitsOf(config)
        .map((s) => `${s.branch} ${s.share}%`)
        .join(' / ');
  }
}
