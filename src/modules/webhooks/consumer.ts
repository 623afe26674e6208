import type { Deps } from '../../deps';
import { wakeWebhookEndpoint } from '../../temporal/webhooks';
import type { EventConsumer, OutboxEvent } from '../outbox/consumer';
import { wakeRounds } from './wake';

interface EndpointRef {
  id: string;
  projectId: string;
  url: string;
}

const ENABLED = `select "id", "project_id", "url" from webhook_endpoints where "project_id" = ? and "enabled"`;

/** How long a project's list of enabled endpoints is reused, and the least time between two wake signals to one endpoint. */
const CACHE_MS = 1_000;
const SIGNAL_EVERY_MS = 1_000;

/**
 * The outbox's webhook consumer. Events reach endpoints through the event stream (./stream.ts), which
 * neither loses nor reorders them, so this consumer only shortens the wait: it wakes the rounds waiting in this
 * process at once, and signals the delivery loops of the project's enabled endpoints (starting one that is
 * not running), at most once a second per endpoint plus a last signal after a burst. A failed signal is
 * logged, never thrown: the loops also look at the stream on their own.
 */
export function webhookWake(deps: Pick<Deps, 'orm' | 'temporal' | 'logger'>): EventConsumer {
  const cache = new Map<string, { at: number; endpoints: Promise<EndpointRef[]> }>();
  const throttles = new Map<string, { last: number; trailing: NodeJS.Timeout | null }>();

  const enabledEndpoints = (projectId: string): Promise<EndpointRef[]> => {
    const now = Date.now();
    const hit = cache.get(projectId);
    if (hit && now - hit.at < CACHE_MS) return hit.endpoints;
    if (cache.size > 10_000) for (const [key, entry] of cache) if (now - entry.at >= CACHE_MS) cache.delete(key);
    const endpoints = deps.orm.em
      .fork()
      .execute<{ id: string; project_id: string; url: string }[]>(ENABLED, [projectId])
      .then((rows) => rows.map((r) => ({ id: r.id, projectId: r.project_id, url: r.url })));
    cache.set(projectId, { at: now, endpoints });
    endpoints.catch(() => cache.delete(projectId));
    return endpoints;
  };

  const signal = (endpoint: EndpointRef) =>
    wakeWebhookEndpoint(deps.temporal, endpoint).catch((err: unknown) =>
      deps.logger.warn({ err, endpointId: endpoint.id }, 'waking a webhook endpoint failed'),
    );

  // Not awaited: while Temporal is slow or down, the outbox's other consumers must not wait on a wake.
  const wake = (endpoint: EndpointRef): void => {
    const now = Date.now();
    const t = throttles.get(endpoint.id) ?? { last: 0, trailing: null };
    throttles.set(endpoint.id, t);
    if (now - t.last >= SIGNAL_EVERY_MS) {
      t.last = now;
      void signal(endpoint);
      return;
    }
    if (t.trailing) return;
    t.trailing = setTimeout(
      () => {
        t.trailing = null;
        t.last = Date.now();
        void signal(endpoint);
      },
      SIGNAL_EVERY_MS - (now - t.last),
    );
    t.trailing.unref();
  };

  return {
    name: 'webhooks',
    async handle(event: OutboxEvent) {
      wakeRounds(event.projectId);
      for (const endpoint of await enabledEndpoints(event.projectId)) wake(endpoint);
    },
  };
}
