/** Names, sizes and texts of the campaign send workflow, shared by the workflow and the code that starts it. */
import { grouped } from '../jobs/ids';

export { grouped };

export const campaignWorkflowId = (campaignId: string) => `campaign:${campaignId}`;

const recipients = (n: number) => `${grouped(n)} ${n === 1 ? 'recipient' : 'recipients'}`;

/** The run's static summary in the Web UI: "Campaign 'Spring sale' to 12,345 recipients". */
export const campaignSummary = (name: string, audience: number) => `Campaign '${name}' to ${recipients(audience)}`;

/** Recipient ids written per snapshot activity, in multiples of the email batch: ids only, so cheap. */
export const SNAPSHOT_FACTOR = 10;

/** Email batches created at once: they cover separate ranges of recipients, so any worker can take each. */
export const ENQUEUE_CONCURRENCY = 4;

/**
 * How far, in batches, the creation of emails runs ahead of delivery (campaign-enqueue-ahead): a window of
 * batches starts only while the campaign's queue leaves room for it, so the queue holds at most this many
 * batches whatever the audience, and what is counted and claimed in it stays as small.
 */
export const ENQUEUE_AHEAD_BATCHES = 2 * ENQUEUE_CONCURRENCY;

/**
 * Steps per run before continue-as-new, for runs started before the campaign-short-runs patch (about 1,300-2,400
 * events); later runs continue at RUN_EVENTS history events (workflows/run-length.ts).
 */
export const STEPS_PER_RUN = 100;

/** How often, at most, the delivery wait reports progress back to the workflow. */
export const PROGRESS_INTERVAL_MS = 5_000;

/** How an A/B test's winner is chosen: the most opens or clicks when the wait ends, or by hand. */
export const WINNER_BY = ['OPENS', 'CLICKS', 'MANUAL'] as const;
export type WinnerBy = (typeof WINNER_BY)[number];

/** An A/B test as the send runs it (docs/campaigns.md "A/B tests"); the variants' content stays in the database. */
export interface AbPlan {
  variants: number;
  /** Percent of the recipients that the variants go to, in equal random parts. */
  testPercent: number;
  waitMinutes: number;
  winnerBy: WinnerBy;
}

/** Signalled when a person chooses the winner (POST /campaigns/{id}/winner): the wait ends early. */
export const WINNER_CHOSEN_SIGNAL = 'campaignWinnerChosen';

/** Which part of an A/B test a phase sends: the variants to the test share, or the winner to the rest. */
export type AbPart = { part: 'test' } | { part: 'rest'; winner: number };

/** Where a send stands; a continued run picks up from it. */
export type CampaignSendState =
  /** Recipients are being fixed, in contact-id order, after `after`. */
  | { phase: 'snapshot'; asOf: string; after: string | null }
  /** An A/B test: the recipients fixed, the test share is drawn and split among the variants. */
  | { phase: 'assign'; total: number }
  /**
   * Emails are being created, batch `next` on; `pending` of those created are not sent yet. `held`: the
   * project is suspended (the reason), reported by a wait for delivery to catch up.
   */
  | {
      phase: 'enqueue';
      total: number;
      next: number;
      processed: number;
      emails: number;
      pending: number;
      held?: string | null;
      ab?: AbPart;
    }
  /**
   * Every email exists; waiting for the last to be handed to SMTP or to fail. `held`: the project is
   * suspended (the reason), so its emails wait for the reinstatement (absent in runs from before holds).
   */
  | { phase: 'deliver'; total: number; emails: number; pending: number; held?: string | null; ab?: AbPart }
  /**
   * An A/B test's share is sent: waiting until `until` (null: until a person chooses) for opens and clicks,
   * then the winner is decided.
   */
  | { phase: 'judge'; total: number; emails: number; processed: number; until: string | null }
  /** None is pending any more. */
  | { phase: 'delivered'; total: number; emails: number; pending: 0 };

export interface CampaignSendInput {
  campaignId: string;
  projectId: string;
  /** The send this run carries out (campaigns.send_id); a cancelled or restarted send has another. */
  sendId: string;
  /** ISO 8601; null sends at once. */
  scheduledFor: string | null;
  /** Recipients per email-creating activity (CAMPAIGN_BATCH_SIZE). */
  batchSize: number;
  /** Set for an A/B test (absent in runs from before A/B tests). */
  ab?: AbPlan;
  /** A person chose the winner before the run continued as new. */
  winnerChosen?: boolean;
  /** Set when the run continues as new. */
  state?: CampaignSendState;
}

/**
 * What the Web UI shows as the run's current details: "Sent 4,000 / 12,345", and why it waits while the
 * project is suspended.
 */
export function progressDetails(state: CampaignSendState): string {
  if (state.phase === 'snapshot') return 'Fixing the recipients';
  if (state.phase === 'assign') return `A/B test: drawing the test share of ${recipients(state.total)}`;
  if (state.phase === 'judge') {
    const done = `A/B test: the variants went to ${recipients(state.emails)}`;
    return state.until ? `${done}; the winner is chosen at ${state.until}` : `${done}; waiting for the winner to be chosen by hand`;
  }
  const sent = `${abPrefix('ab' in state ? state.ab : undefined)}Sent ${grouped(state.emails - state.pending)} / ${grouped(state.total)}`;
  if ((state.phase === 'enqueue' || state.phase === 'deliver') && state.held) {
    return `${sent}; held: the project is suspended (${state.held}); the other emails go once it is reinstated`;
  }
  if (state.phase === 'enqueue') return `${sent}; emails created for ${grouped(state.processed)}`;
  return sent;
}

/** The delivery wait's summary in the Web UI. */
export const deliverySummary = (pending: number, held: string | null | undefined) =>
  held
    ? `Wait for the project to be reinstated: ${grouped(pending)} emails held`
    : `Wait for ${grouped(pending)} emails to be handed to SMTP`;

/** The summary of a wait for delivery to catch up before the next window of batches. */
export const catchUpSummary = (pending: number, below: number, held: string | null | undefined) =>
  held
    ? deliverySummary(pending, held)
    : `Wait for delivery to catch up: ${grouped(pending)} emails queued, the next batches at ${grouped(below)}`;

const abPrefix = (ab: AbPart | undefined) =>
  ab === undefined ? '' : ab.part === 'test' ? 'A/B test, the variants: ' : `A/B test, variant ${variantName(ab.winner)} to the rest: `;

/** Variants are named A to D in the Web UI, the dashboard and the docs; the API numbers them from 0. */
export const variantName = (index: number) => String.fromCharCode(65 + index);

/** The test share, in equal parts per variant: at least one recipient each while the audience allows. */
export function testShareSize(total: number, plan: Pick<AbPlan, 'variants' | 'testPercent'>): number {
  const each = Math.floor((total * plan.testPercent) / 100 / plan.variants);
  return Math.min(total - (total % plan.variants), Math.max(each, 1) * plan.variants);
}
