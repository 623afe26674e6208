import { Client } from 'pg';
import type { Logger } from '../logger';

/**
 * A dedicated connection that LISTENs on a channel and calls `onNotify` for each notification, with its
 * payload. It reconnects when the connection drops, and then calls `onNotify` without a payload: anything may
 * have been notified meanwhile. Callers keep a slow poll for what a lost connection missed.
 */
export class NotificationListener {
  private client: Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly channel: string,
    private readonly onNotify: (payload?: string) => void,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl });
    client.on('notification', (message) => this.onNotify(message.payload ?? ''));
    client.on('error', (err) => {
      this.logger.warn({ err, channel: this.channel }, 'notification connection lost; reconnecting');
      this.reconnectSoon(client);
    });
    client.on('end', () => this.reconnectSoon(client));
    try {
      await client.connect();
      await client.query(`listen "${this.channel}"`);
      this.client = client;
      // Whatever was notified while we were not listening is found by the next pass.
      this.onNotify();
    } catch (err) {
      this.logger.warn({ err, channel: this.channel }, 'cannot listen for notifications; retrying');
      this.reconnectSoon(client);
    }
  }

  private reconnectSoon(client: Client): void {
    if (this.client === client) this.client = null;
    client.removeAllListeners('end');
    void client.end().catch(() => undefined);
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.stopped) void this.connect();
    }, 1000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }
}
