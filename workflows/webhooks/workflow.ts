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
import type { WebhookActivities } from '../../activities/webhooks';
import {
  GIVE_UP_AFTER_MS,
  IDLE_RECHECK,
  retryDelayMs,
  ROUNDS_PER_RUN,
  WAKE_SIGNAL,
  type DeliveryRound,
  type WebhookEndpointInput,
} from './ids';
import { runIsFull } from '../run-length';

/** Runs that start after this patch continue as new at RUN_EVENTS history events (workflows/run-length.ts); earlier ones after ROUNDS_PER_RUN rounds. */
const SHORT_RUNS = 'webhook-short-runs';

const { deliverWebhookRound } = proxyActivities<WebhookActivities>({
  // A round stops starting requests after its budget (30 s) and each request gives up after 10 s, so a round
  // on a worker that died is taken up again within a minute. No heartbeat timeout: a round that missed one
  // would be retried beside itself, two rounds sending the same queue.
  startToCloseTimeout: '1 minute',
  retry: { maximumInterval: '1 minute' },
});
const { disableWebhookEndpoint } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumInterval: '5 minutes' },
});

export const wakeSignal = defineSignal(WAKE_SIGNAL);

const formatMs = (ms: number) => (ms >= 3_600_000 ? `${Math.round(ms / 360_000) / 10} h` : `${Math.round(ms / 1000)} s`);

/**
 * Delivers one endpoint's queue in order, for as long as the endpoint exists and is enabled (docs/webhooks.md).
 * Each round is an activity that moves new events of the stream into the queue and sends them one after the
 * other. A failure holds the queue (order) and waits on a durable timer before the same delivery is tried
 * again; after 3 days of failures the endpoint is disabled. Idle, it waits for a wake signal from the
 * events outbox (or looks again every 10 minutes).
 */
export async function webhookEndpoint(input: WebhookEndpointInput): Promise<void> {
  const shortRuns = patched(SHORT_RUNS);
  let woken = false;
  setHandler(wakeSignal, () => {
    woken = true;
  });
  let failingSince = input.failingSince ?? null;
  let delivered = 0;
  // A round lingers for more events unless it only looks after a quiet spell (the idle recheck).
  let linger = true;
  for (let round = 1; ; round++) {
    woken = false;
    const result: DeliveryRound = await deliverWebhookRound(input.endpointId, { linger });
    linger = true;
    if (result.kind === 'gone' || result.kind === 'disabled') return;
    delivered += result.delivered;
    if (result.kind === 'failed') {
      failingSince ??= Date.now();
      const failingFor = Date.now() - failingSince;
      if (failingFor >= GIVE_UP_AFTER_MS) {
        await disableWebhookEndpoint(input.endpointId, `Deliveries failed for ${formatMs(failingFor)}; last error: ${result.error}`);
        return;
      }
      const delay = retryDelayMs(result.attempts);
      setCurrentDetails(
        `Failing for ${formatMs(failingFor)}: backlog ${result.backlog}, attempt ${result.attempts} of delivery ${result.deliveryId} failed: ${result.error}. Next attempt in ${formatMs(delay)}.`,
      );
      await sleep(delay, { summary: `Retry delivery ${result.deliveryId} (attempt ${result.attempts + 1})` });
    } else {
      failingSince = null;
      if (result.kind === 'idle') {
        setCurrentDetails(
          `Up to date: ${delivered} delivered by this run${result.lastDeliveredAt ? `, last at ${result.lastDeliveredAt}` : ''}.`,
        );
        linger = await condition(() => woken, IDLE_RECHECK);
      } else {
        setCurrentDetails(`Catching up: backlog ${result.backlog}, ${delivered} delivered by this run.`);
      }
    }
    if (shortRuns ? runIsFull() : round >= ROUNDS_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof webhookEndpoint>({ endpointId: input.endpointId, failingSince });
    }
  }
}
