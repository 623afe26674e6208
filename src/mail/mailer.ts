import type { Envelope, SmtpConnection } from './smtp/connection';
import { SmtpPool } from './smtp/pool';
import { smtpSettings, type SmtpSettings } from './smtp-settings';

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/**
 * The process's SMTP connections to SMTP_URL, shared by the delivery pump and the platform's own mail. Each
 * message takes a few round trips on its connection, so delivery throughput grows with SMTP_MAX_CONNECTIONS.
 * A recipient domain may be routed to an SMTP server of its own (the sandbox's simulator, docs/sandbox.md):
 * the senders' code is the same whichever server a message goes to.
 */
export class Mailer {
  private readonly routes = new Map<string, SmtpPool>();
  private readonly lenders = new WeakMap<SmtpConnection, SmtpPool>();

  constructor(
    private readonly relay: SmtpPool,
    private readonly maxConnections: number,
  ) {}

  /** From now on, mail to `domain` goes to the server at `settings` instead of SMTP_URL. */
  route(domain: string, settings: SmtpSettings): void {
    this.routes.set(domain.toLowerCase(), new SmtpPool(settings, this.maxConnections));
  }

  /** A connection for mail to `recipient`, the caller's own until `release`. */
  async acquire(recipient: string): Promise<SmtpConnection> {
    const pool = this.poolFor(recipient);
    const connection = await pool.acquire();
    this.lenders.set(connection, pool);
    return connection;
  }

  release(connection: SmtpConnection): void {
    (this.lenders.get(connection) ?? this.relay).release(connection);
  }

  /** Sends one message from envelope to its end, for mail that needs no hand-over (the platform's own). */
  send(envelope: Envelope, message: Buffer): Promise<void> {
    return this.poolFor(envelope.to[0]!).send(envelope, message);
  }

  async close(): Promise<void> {
    await Promise.all([this.relay.close(), ...[...this.routes.values()].map((pool) => pool.close())]);
  }

  private poolFor(recipient: string): SmtpPool {
    return this.routes.get(domainOf(recipient)) ?? this.relay;
  }
}

export const createMailer = (smtpUrl: string, maxConnections: number): Mailer =>
  new Mailer(new SmtpPool(smtpSettings(smtpUrl), maxConnections), maxConnections);
