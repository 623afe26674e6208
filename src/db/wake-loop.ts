import type { Logger } from '../logger';
import { NotificationListener } from './notification-listener';
import { WakeableSleep } from '../wakeable-sleep';

/**
 * One pass over a table of due work: does what is due now and returns how many milliseconds until the next
 * row falls due (Infinity when none is scheduled, 0 or less when one is already due). A pass that reads the
 * next due time with SQL must not clamp it with `greatest(0, …)`: GREATEST ignores NULL, so "nothing
 * scheduled" would read as "due now" and the loop would spin.
 */
export type Pass = () => Promise<number>;

export interface WakeLoopOptions {
  /** For logs. */
  name: string;
  /** The NOTIFY channel that says new work was committed. */
  channel: string;
  /** The slow poll that backs up notifications missed while the listening connection was down. */
  pollIntervalMs: number;
}

/**
 * The claim loop shared by the background pumps over PostgreSQL tables (the events outbox, email delivery):
 * a pass runs at start, on every NOTIFY of the channel (one round trip of latency instead of a poll
 * interval), when the work the last pass scheduled falls due, and at a slow poll otherwise. A notification
 * that arrives during a pass makes another pass run right after it, so nothing committed meanwhile waits.
 */
export class WakeLoop {
  private readonly listener: NotificationListener;
  private running: Promise<void> | null = null;
  private stopping = false;
  private pending = false;
  private readonly sleeper = new WakeableSleep();

  constructor(
    databaseUrl: string,
    private readonly pass: Pass,
    private readonly logger: Logger,
    private readonly options: WakeLoopOptions,
  ) {
    this.listener = new NotificationListener(databaseUrl, options.channel, () => this.wake(), logger);
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  async start(): Promise<void> {
    this.stopping = false;
    await this.listener.start();
    this.running = this.loop();
  }

  /** Ends after the pass under way. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.running;
    this.running = null;
    await this.listener.stop();
  }

  /** Runs a pass as soon as the current one (if any) ends. */
  wake(): void {
    this.pending = true;
    this.sleeper.wake();
  }

  private sleep(ms: number): Promise<void> {
    if (this.pending || this.stopping) return Promise.resolve();
    return this.sleeper.sleep(ms);
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      this.pending = false;
      let delay = this.options.pollIntervalMs;
      try {
        delay = Math.max(0, Math.min(delay, await this.pass()));
      } catch (err) {
        this.logger.error({ err, loop: this.options.name }, 'background pass failed; retrying at the next poll');
      }
      await this.sleep(delay);
    }
  }
}
