import type { Deps } from '../../deps';
import { retryDelayMs, type DeliveryRound } from '../../../workflows/webhooks/ids';
import { attemptDelivery, type AttemptOutcome } from './attempt';
import { WebhookEndpoint } from './entities';
import { backlogOf, markAttemptFailed, markSucceeded, queueHead } from './queue';
import { feedQueue } from './stream';
import { signingSecrets } from './secret';
import { waitForEvents } from './wake';

export interface RoundOptions {
  /** No new request starts after this long. */
  budgetMs: number;
  /** With nothing to send, the round keeps looking for new events this long before it ends idle. */
  lingerMs: number;
  /** How often it looks meanwhile, unless the outbox wakes it first. */
  pollMs: number;
  /** Deliveries read per query, events moved into the queue per statement. */
  batchSize: number;
}

const RECORD_EVERY = 50;
const FEED_WHILE_FAILING = 5;

export const ROUND_DEFAULTS: RoundOptions = { budgetMs: 30_000, lingerMs: 3_000, pollMs: 250, batchSize: 200 };

/**
 * One round of an endpoint's delivery loop: feeds the queue from the event stream and sends the queue in
 * order, one request at a time, until it is empty (and stays so for `lingerMs`), the budget runs out, or a
 * delivery fails; a failure stops the round so the queue waits for that delivery's retry (order).
 */
export async function deliveryRound(
  deps: Pick<Deps, 'orm' | 'dns' | 'config'>,
  endpointId: string,
  options: RoundOptions = ROUND_DEFAULTS,
): Promise<DeliveryRound> {
  const em = deps.orm.em.fork();
  const started = Date.now();
  let lastWork = started;
  let delivered = 0;
  let lastDeliveredAt: string | null = null;
  for (;;) {
    em.clear();
    const endpoint = await em.findOne(WebhookEndpoint, { id: endpointId });
    if (!endpoint) return { kind: 'gone' };
    if (!endpoint.enabled) return { kind: 'disabled' };
    const head = await queueHead(em, endpointId, options.batchSize);
    if (head.length === 0) {
      const { scanned, held } = await feedQueue(em, endpointId, options.batchSize);
      if (scanned > 0) continue;
      const now = Date.now();
      // Events held back by an older transaction still running come without another wake: keep looking.
      if (now - started >= options.budgetMs) {
        return held ? { kind: 'busy', delivered, backlog: 0, lastDeliveredAt } : { kind: 'idle', delivered, lastDeliveredAt };
      }
      if (!held && now - lastWork >= options.lingerMs) return { kind: 'idle', delivered, lastDeliveredAt };
      await waitForEvents(endpoint.projectId, options.pollMs);
      continue;
    }
    lastWork = Date.now();
    const secrets = signingSecrets(deps.config, endpoint);
    const done: { id: string; outcome: AttemptOutcome }[] = [];
    for (const delivery of head) {
      if (Date.now() - started >= options.budgetMs) {
        await markSucceeded(em, done);
        return { kind: 'busy', delivered, backlog: await backlogOf(em, endpointId), lastDeliveredAt };
      }
      const outcome = await attemptDelivery(deps, { url: endpoint.url, webhookId: delivery.webhookId, body: delivery.body, secrets });
      if (outcome.ok) {
        done.push({ id: delivery.id, outcome });
        delivered++;
        lastDeliveredAt = outcome.at.toISOString();
        // Recorded as it goes, so a crash repeats at most this many requests.
        if (done.length >= RECORD_EVERY) await markSucceeded(em, done.splice(0));
        continue;
      }
      await markSucceeded(em, done);
      const attempts = delivery.backoffAttempts + 1;
      await markAttemptFailed(em, delivery.id, outcome, new Date(outcome.at.getTime() + retryDelayMs(attempts)));
      // Events recorded meanwhile enter the queue (and the log) while the head waits, a few batches per attempt.
      for (
        let fed = 0;
        fed < FEED_WHILE_FAILING && (await feedQueue(em, endpointId, options.batchSize)).scanned === options.batchSize;
        fed++
      );
      const error = outcome.error ?? 'failed';
      return { kind: 'failed', delivered, backlog: await backlogOf(em, endpointId), attempts, error, deliveryId: delivery.id };
    }
    await markSucceeded(em, done);
  }
}
