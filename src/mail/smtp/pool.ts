import type { SmtpSettings } from '../smtp-settings';
import { SmtpConnection, type Envelope } from './connection';

/** An idle connection is closed after this long: servers drop idle clients after a few minutes anyway. */
const IDLE_MS = 30_000;

/**
 * Up to `maxConnections` SMTP connections, each lent to one sender at a time. The connection used last is
 * lent first, so that a quiet spell lets the others close.
 */
export class SmtpPool {
  private readonly idle: Array<{ connection: SmtpConnection; timer: NodeJS.Timeout }> = [];
  private readonly queue: Array<() => void> = [];
  private opened = 0;
  private closed = false;

  constructor(
    private readonly settings: SmtpSettings,
    private readonly maxConnections: number,
  ) {}

  /** A connection of the caller's own until `release`; opens one when none is idle and the limit allows. */
  async acquire(): Promise<SmtpConnection> {
    for (;;) {
      const idle = this.idle.pop();
      if (idle) {
        clearTimeout(idle.timer);
        if (idle.connection.usable) return idle.connection;
        this.opened--;
        continue;
      }
      if (this.opened < this.maxConnections) {
        this.opened++;
        try {
          return await SmtpConnection.open(this.settings);
        } catch (err) {
          this.opened--;
          this.queue.shift()?.();
          throw err;
        }
      }
      await new Promise<void>((resolve) => this.queue.push(resolve));
    }
  }

  /** Sends one message from envelope to its end, for mail that needs no hand-over (the platform's own). */
  async send(envelope: Envelope, message: Buffer): Promise<void> {
    const connection = await this.acquire();
    try {
      await connection.stage(envelope, message);
      await connection.endData();
    } finally {
      this.release(connection);
    }
  }

  /** Takes the connection back: kept for the next message if it can carry one, else forgotten. */
  release(connection: SmtpConnection): void {
    if (connection.usable && !this.closed) {
      const timer = setTimeout(() => this.expire(connection), IDLE_MS).unref();
      this.idle.push({ connection, timer });
    } else {
      this.opened--;
      void connection.close();
    }
    this.queue.shift()?.();
  }

  /** Closes the idle connections (QUIT); connections still lent close when they come back. */
  async close(): Promise<void> {
    this.closed = true;
    const idle = this.idle.splice(0);
    this.opened -= idle.length;
    await Promise.all(
      idle.map(({ connection, timer }) => {
        clearTimeout(timer);
        return connection.close();
      }),
    );
  }

  private expire(connection: SmtpConnection): void {
    const index = this.idle.findIndex((i) => i.connection === connection);
    if (index === -1) return;
    this.idle.splice(index, 1);
    this.opened--;
    void connection.close();
  }
}
