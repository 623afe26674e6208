import { NotificationListener } from '../../db/notification-listener';
import type { Logger } from '../../logger';
import { CAMPAIGN_DRAINED_CHANNEL } from '../emails/campaign-queue';

/** How long the connection stays open after the last wait, so that a send's successive waits share it. */
const LINGER_MS = 30_000;

/**
 * Tells a campaign send that its last queued email left, from the notification the outcome that dequeued it
 * sends (campaign-queue.ts, notifyDrained), instead of asking what is left over and over. One LISTEN
 * connection per process, open while some send waits.
 */
export class CampaignDrainWatch {
  private listener: NotificationListener | null = null;
  private linger: NodeJS.Timeout | undefined;
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {}

  /**
   * Registers now, before the caller counts what is left, and resolves on the campaign's notification, on a
   * reconnection (anything may have happened), after `ms`, or when `stop` aborts; a caller that stops waiting
   * aborts it, so that neither the timer nor the waiter outlives the wait.
   */
  next(campaignId: string, ms: number, stop: AbortSignal): Promise<void> {
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const set = this.waiters.get(campaignId) ?? new Set();
    set.add(wake);
    this.waiters.set(campaignId, set);
    this.open();
    const timer = setTimeout(wake, ms);
    if (stop.aborted) wake();
    else stop.addEventListener('abort', wake, { once: true });
    return woken.finally(() => {
      clearTimeout(timer);
      stop.removeEventListener('abort', wake);
      set.delete(wake);
      if (set.size === 0) this.waiters.delete(campaignId);
      if (this.waiters.size === 0) this.closeSoon();
    });
  }

  private open(): void {
    clearTimeout(this.linger);
    if (this.listener) return;
    this.listener = new NotificationListener(this.databaseUrl, CAMPAIGN_DRAINED_CHANNEL, (payload) => this.notified(payload), this.logger);
    void this.listener.start();
  }

  private notified(campaignId: string | undefined): void {
    const woken = campaignId === undefined ? [...this.waiters.values()] : [this.waiters.get(campaignId) ?? new Set<() => void>()];
    for (const set of woken) for (const wake of set) wake();
  }

  /** Closes the connection now; for a worker stopping inside a process that goes on (tests). */
  async close(): Promise<void> {
    clearTimeout(this.linger);
    const listener = this.listener;
    this.listener = null;
    await listener?.stop();
  }

  private closeSoon(): void {
    clearTimeout(this.linger);
    this.linger = setTimeout(() => {
      const listener = this.listener;
      this.listener = null;
      void listener?.stop();
    }, LINGER_MS);
    this.linger.unref();
  }
}
