import { ApplicationFailure, CancelledFailure, Context } from '@temporalio/activity';
import type { Deps } from '../src/deps';
import { FilterError } from '../src/modules/filters/errors';
import { CampaignDrainWatch } from '../src/modules/campaigns/drain-watch';
import {
  assignTestShare,
  beginSend,
  decideSendWinner,
  enqueueBatch,
  finishSend,
  pendingOfSend,
  snapshotBatch,
  type SendRef,
} from '../src/modules/campaigns/send-run';
import type { AbPart, AbPlan } from '../workflows/campaigns/ids';
import { suspensionOf } from '../src/modules/reputation/suspension';
import { PROGRESS_INTERVAL_MS } from '../workflows/campaigns/ids';

const HEARTBEAT_MS = 1_000;
/** An unchanged queue (SMTP down, retries backing off) is reported this often, so the wait never outlives its timeout. */
const MAX_WAIT_MS = 60_000;
/** How often a wait for room in the queue counts it: no notification comes before the queue is empty. */
const ROOM_POLL_MS = 250;

/**
 * Heartbeats while the work runs, so that a batch on a worker that died is retried within the heartbeat
 * timeout instead of the start-to-close timeout. A stored audience that no longer resolves (segments edited
 * into a cycle) will not resolve on a retry either.
 */
async function step<T>(work: () => Promise<T>): Promise<T> {
  const context = Context.current();
  const beating = setInterval(() => context.heartbeat(), HEARTBEAT_MS);
  try {
    return await work();
  } catch (err) {
    if (err instanceof FilterError) throw ApplicationFailure.nonRetryable(err.message, 'FilterError');
    throw err;
  } finally {
    clearInterval(beating);
  }
}

const drainWatches = new WeakMap<Deps, CampaignDrainWatch[]>();

/**
 * Closes the LISTEN connections the campaign activities built on `deps` keep open for 30 s after a send, once
 * their worker has stopped: a test file's stack ends sooner, and its database goes with it.
 */
export async function closeCampaignDrainWatches(deps: Deps): Promise<void> {
  const watches = drainWatches.get(deps) ?? [];
  drainWatches.delete(deps);
  await Promise.all(watches.map((w) => w.close()));
}

export function createCampaignActivities(deps: Deps) {
  const drains = new CampaignDrainWatch(deps.config.DATABASE_URL, deps.logger);
  drainWatches.set(deps, [...(drainWatches.get(deps) ?? []), drains]);
  return {
    beginCampaignSend: (ref: SendRef) => step(() => beginSend(deps.orm.em.fork(), ref)),

    snapshotCampaignRecipients: (input: SendRef & { asOf: string; after: string | null; size: number }) =>
      step(() => snapshotBatch(deps.orm.em.fork(), input, input)),

    enqueueCampaignEmails: (input: SendRef & { from: number; size: number; ab?: AbPart }) =>
      step(() => enqueueBatch(deps.orm.em.fork(), deps, input, input)),

    assignCampaignTestShare: (input: SendRef & { plan: AbPlan }) => step(() => assignTestShare(deps.orm.em.fork(), input, input.plan)),

    decideCampaignWinner: (ref: SendRef) => step(() => decideSendWinner(deps.orm.em.fork(), ref)),

    /**
     * Waits until none of the send's emails is pending (or, given `below`, at most that many: the enqueue's
     * wait for room, which counts every `ROOM_POLL_MS`), or `PROGRESS_INTERVAL_MS` passed with a change to
     * report, or `MAX_WAIT_MS` passed; null when the send is no longer under way. The queue is counted when
     * the outcome that took its last email notifies (CampaignDrainWatch), and every `PROGRESS_INTERVAL_MS`
     * for the progress it reports. `held` is the project's suspension, which holds the emails (docs/campaigns.md
     * "While the project is suspended"); a change of it is reported at once, for the Web UI's details.
     */
    async awaitCampaignDelivery(
      input: SendRef & { pending: number; held?: string | null; below?: number },
    ): Promise<{ pending: number; held: string | null } | null> {
      const context = Context.current();
      const started = Date.now();
      for (;;) {
        const done = new AbortController();
        const poll = input.below === undefined ? PROGRESS_INTERVAL_MS : ROOM_POLL_MS;
        const drained = drains.next(input.campaignId, poll, AbortSignal.any([context.cancellationSignal, done.signal]));
        try {
          const em = deps.orm.em.fork();
          const send = await pendingOfSend(em, input);
          if (send === null) return null;
          const { pending } = send;
          const held = (await suspensionOf(em, send.projectId))?.reason ?? null;
          const waited = Date.now() - started;
          const changed = pending !== input.pending || held !== (input.held ?? null);
          const roomMade = input.below !== undefined && pending <= input.below;
          if (
            pending === 0 ||
            roomMade ||
            (changed && (waited >= PROGRESS_INTERVAL_MS || held !== (input.held ?? null))) ||
            waited >= MAX_WAIT_MS
          ) {
            return { pending, held };
          }
          context.heartbeat();
          await drained;
        } finally {
          done.abort();
        }
        if (context.cancellationSignal.aborted) throw new CancelledFailure('the campaign send was cancelled');
      }
    },

    finishCampaignSend: (ref: SendRef) => step(() => finishSend(deps.orm.em.fork(), ref)),
  };
}

export type CampaignActivities = ReturnType<typeof createCampaignActivities>;
