import {
  condition,
  continueAsNew,
  defineSignal,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { CampaignActivities } from '../../activities/campaigns';
import type { SendRef } from '../../src/modules/campaigns/send-run';
import {
  ENQUEUE_AHEAD_BATCHES,
  ENQUEUE_CONCURRENCY,
  catchUpSummary,
  deliverySummary,
  SNAPSHOT_FACTOR,
  STEPS_PER_RUN,
  grouped,
  progressDetails,
  WINNER_CHOSEN_SIGNAL,
  type AbPart,
  type CampaignSendInput,
  type CampaignSendState,
} from './ids';
import { runIsFull } from '../run-length';

// Batches heartbeat: one on a worker that died is retried within ten seconds.
const batches = proxyActivities<CampaignActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { maximumInterval: '1 minute' },
});

export type CampaignSendOutcome = 'SENT' | 'STOPPED';

/**
 * Runs that start after this patch continue as new once their history reaches RUN_EVENTS (workflows/run-length.ts),
 * about five windows of email batches; runs recorded before it continue after STEPS_PER_RUN steps, as they did.
 */
const SHORT_RUNS = 'campaign-short-runs';

/**
 * A/B tests: a run with `input.ab` draws a test share after fixing the recipients, sends it the variants,
 * waits, decides the winner and sends it to the rest. Only runs carrying a test ask for the patch, so runs
 * without one record the commands they always did.
 */
const AB_TESTS = 'campaign-ab-tests';

/**
 * Runs that start after this patch create a window of email batches only while the campaign's queue has room
 * for it (ENQUEUE_AHEAD_BATCHES); earlier ones create every batch as fast as it goes, as they did.
 */
const ENQUEUE_AHEAD = 'campaign-enqueue-ahead';

export const winnerChosen = defineSignal(WINNER_CHOSEN_SIGNAL);

/** Whether a person chose the winner during this run (or a run it continued). */
let chosenByHand = false;

/** Waits for the scheduled time on a durable timer, then takes the campaign to SENDING. */
async function begin(input: CampaignSendInput, ref: SendRef): Promise<CampaignSendState | null> {
  if (input.scheduledFor) {
    const wait = new Date(input.scheduledFor).getTime() - Date.now();
    if (wait > 0) await sleep(wait, { summary: `Wait until ${input.scheduledFor}` });
  }
  const begun = await batches.beginCampaignSend(ref);
  return begun && { phase: 'snapshot', asOf: begun.asOf, after: null };
}

/**
 * Waits for delivery to take the queue to `below` (absent: to empty), or for progress to report. `held` is
 * passed only once a wait reported it: runs recorded before holds schedule what they scheduled.
 */
function awaitDelivery(ref: SendRef, state: { pending: number; held?: string | null }, summary: string, below?: number) {
  return batches.awaitCampaignDelivery.executeWithOptions({ summary, startToCloseTimeout: '2 minutes' }, [
    {
      ...ref,
      pending: state.pending,
      ...(below !== undefined ? { below } : {}),
      ...(state.held !== undefined ? { held: state.held } : {}),
    },
  ]);
}

/**
 * One step of the send: an activity, or a window of email batches side by side; null when the send stopped.
 * `bounded`: the enqueue waits for room in the queue (ENQUEUE_AHEAD).
 */
async function advance(
  input: CampaignSendInput,
  ref: SendRef,
  state: Exclude<CampaignSendState, { phase: 'delivered' }>,
  bounded: boolean,
): Promise<CampaignSendState | null> {
  switch (state.phase) {
    case 'snapshot': {
      const size = input.batchSize * SNAPSHOT_FACTOR;
      const batch = await batches.snapshotCampaignRecipients.executeWithOptions({ summary: `Fix the next ${grouped(size)} recipients` }, [
        { ...ref, asOf: state.asOf, after: state.after, size },
      ]);
      if (!batch) return null;
      if (batch.total === null) return { ...state, after: batch.last };
      const fixed = { total: batch.total, emails: 0, pending: 0 };
      if (batch.total === 0) return { phase: 'deliver', ...fixed };
      return input.ab ? { phase: 'assign', total: batch.total } : { phase: 'enqueue', ...fixed, next: 0, processed: 0 };
    }
    case 'assign': {
      const plan = input.ab!;
      const share = await batches.assignCampaignTestShare.executeWithOptions(
        { summary: `Draw the test share: ${plan.testPercent}% in ${plan.variants} equal parts` },
        [{ ...ref, plan }],
      );
      if (!share) return null;
      const start = { total: state.total, next: 0, processed: 0, emails: 0, pending: 0 };
      return share.size === 0 ? judgeAt(input, start, true) : { phase: 'enqueue', ...start, ab: { part: 'test' } };
    }
    case 'judge': {
      if (!chosenByHand) {
        if (state.until === null) await condition(() => chosenByHand);
        else {
          const by = input.ab!.winnerBy === 'OPENS' ? 'opens' : 'clicks';
          await condition(() => chosenByHand, Math.max(0, new Date(state.until).getTime() - Date.now()), {
            summary: `Watch the variants' ${by} until ${state.until}, or a choice by hand`,
          });
        }
      }
      const decided = await batches.decideCampaignWinner.executeWithOptions({ summary: 'Decide the winner' }, [ref]);
      if (!decided) return null;
      const rest: AbPart = { part: 'rest', winner: decided.winner };
      return { phase: 'enqueue', total: state.total, next: 0, processed: 0, emails: state.emails, pending: 0, ab: rest };
    }
    case 'enqueue': {
      const batchCount = Math.ceil(state.total / input.batchSize);
      const window = Array.from({ length: Math.min(ENQUEUE_CONCURRENCY, batchCount - state.next) }, (_, i) => state.next + i);
      const room = (ENQUEUE_AHEAD_BATCHES - window.length) * input.batchSize;
      if (bounded && state.pending > room) {
        const progress = await awaitDelivery(ref, state, catchUpSummary(state.pending, room, state.held), room);
        if (!progress) return null;
        return { ...state, pending: progress.pending, held: progress.held };
      }
      const results = await Promise.all(
        window.map((k) => {
          const from = k * input.batchSize;
          return batches.enqueueCampaignEmails.executeWithOptions(
            { summary: `Create the emails of recipients ${grouped(from + 1)}–${grouped(Math.min(state.total, from + input.batchSize))}` },
            [{ ...ref, from, size: input.batchSize, ...(state.ab ? { ab: state.ab } : {}) }],
          );
        }),
      );
      const done = results.filter((r) => r !== null);
      if (done.length < results.length) return null;
      const next = {
        ...state,
        next: state.next + window.length,
        processed: state.processed + done.reduce((n, r) => n + r.processed, 0),
        emails: state.emails + done.reduce((n, r) => n + r.emails, 0),
        pending: Math.max(...done.map((r) => r.pending)),
      };
      if (next.next < batchCount) return next;
      return { phase: 'deliver', total: next.total, emails: next.emails, pending: next.pending, ...(state.ab ? { ab: state.ab } : {}) };
    }
    case 'deliver': {
      // Asked every time, never concluded from a count an enqueue reported while other batches still ran.
      const progress = await awaitDelivery(ref, state, deliverySummary(state.pending, state.held));
      if (!progress) return null;
      const held = progress.held === undefined ? {} : { held: progress.held };
      if (progress.pending > 0) return { ...state, pending: progress.pending, ...held };
      if (state.ab?.part === 'test') return judgeAt(input, { total: state.total, emails: state.emails, processed: 0 }, false);
      return { phase: 'delivered', total: state.total, emails: state.emails, pending: 0 };
    }
  }
}

/** The test share is out (or there is none): wait the test's time, or for a choice by hand, then decide. */
function judgeAt(input: CampaignSendInput, at: { total: number; emails: number; processed: number }, now: boolean): CampaignSendState {
  const plan = input.ab!;
  const until = now
    ? new Date(Date.now()).toISOString()
    : plan.winnerBy === 'MANUAL'
      ? null
      : new Date(Date.now() + plan.waitMinutes * 60_000).toISOString();
  return { phase: 'judge', total: at.total, emails: at.emails, processed: at.processed, until };
}

/**
 * Sends one campaign (workflow ID `campaign:<id>`): waits until `scheduledFor` if given, fixes the
 * recipients into campaign_recipients in cursor-paged batches, creates their emails a batch of positions
 * per activity (a few batches at once) through the delivery API, waits until none is pending, then marks
 * the campaign SENT. An A/B test (`input.ab`) sends its variants to a test share first, waits, decides the
 * winner and sends it to the rest (docs/campaigns.md "A/B tests"). Every step checks that the campaign still carries this send, so a cancel (or a restart
 * under a new send) stops it. Long sends continue as new with where they stand, every RUN_EVENTS history events.
 */
export async function campaignSend(input: CampaignSendInput): Promise<CampaignSendOutcome> {
  const ref = { campaignId: input.campaignId, sendId: input.sendId };
  if (input.ab && patched(AB_TESTS)) {
    chosenByHand = input.winnerChosen === true;
    setHandler(winnerChosen, () => {
      chosenByHand = true;
    });
  }
  const shortRuns = patched(SHORT_RUNS);
  const bounded = patched(ENQUEUE_AHEAD);
  const full = (steps: number) => (shortRuns ? runIsFull() : steps >= STEPS_PER_RUN || workflowInfo().continueAsNewSuggested);
  let state = input.state ?? (await begin(input, ref));
  for (let steps = 0; state && state.phase !== 'delivered'; steps++) {
    setCurrentDetails(progressDetails(state));
    if (steps > 0 && full(steps)) {
      await continueAsNew<typeof campaignSend>({ ...input, state, ...(chosenByHand ? { winnerChosen: true } : {}) });
    }
    state = await advance(input, ref, state, bounded);
  }
  if (!state) return 'STOPPED';
  setCurrentDetails(progressDetails(state));
  return (await batches.finishCampaignSend(ref)) ? 'SENT' : 'STOPPED';
}
