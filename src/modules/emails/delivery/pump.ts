import { backoffMs } from '../../../db/backoff';
import type { Deps } from '../../../deps';
import type { Orm } from '../../../db/orm';
import { WakeLoop } from '../../../db/wake-loop';
import type { Logger } from '../../../logger';
import type { Mailer } from '../../../mail/mailer';
import { SmtpConnection, type Envelope } from '../../../mail/smtp/connection';
import type { Config } from '../../../config';
import { signedMessage, signedRelayedMessage } from '../compose';
import type { OutgoingAttachment } from '../outgoing';
import { decorate } from '../decorate';
import type { Disposition } from '../entities';
import type { SigningKey } from '../dkim-signature';
import { TemplateError } from '../../templates/render';
import { ByteBudget } from './byte-budget';
import { DELIVERY_CHANNEL } from './channel';
import { claimDue, type ClaimedEmail } from './claim';
import { DkimKeys } from './dkim-keys';
import type { DeferredBodies, Render, RenderedBody } from './deferred-bodies';
import { TransactionGate } from './gate';
import { HandOver } from './hand-over';
import { LeaseKeeper } from './leases';
import { OutcomeWriter, writeOutcomes, type Outcome } from './outcomes';
import { analyzeStaleTables } from './stale-statistics';
import { classifySmtpFailure } from './smtp-failure';

export interface PumpOptions {
  /** Emails claimed per transaction. */
  batchSize: number;
  /** Emails being handed to SMTP at once (spread over SMTP_MAX_CONNECTIONS connections). */
  concurrency: number;
  /** How long a claim holds an email unless renewed; a worker that dies gives its emails back when it runs out (DELIVERY_LEASE_MS). */
  leaseMs: number;
  /** First retry delay after a transient failure; it doubles per attempt up to `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Transient failures are retried until the email is this old; then it is FAILED. */
  giveUpAfterMs: number;
  /** The slow poll that backs up notifications. */
  pollIntervalMs: number;
  /** Bytes of message content held at once (see ByteBudget). */
  maxBytesInFlight: number;
}

export const PUMP_DEFAULTS: Omit<PumpOptions, 'leaseMs'> = {
  batchSize: 200,
  concurrency: 200,
  retryBaseMs: 10_000,
  retryMaxMs: 60 * 60_000,
  giveUpAfterMs: 72 * 60 * 60_000,
  pollIntervalMs: 5_000,
  maxBytesInFlight: 256 * 1024 * 1024,
};

const NEXT_DUE = `
select (extract(epoch from min(n."at") - clock_timestamp()) * 1000)::float8 as ms
from (values (0), (1), (2)) as p("priority")
cross join lateral (select "due_at" as "at" from email_queue where "priority" = p."priority" and "due_at" < 'infinity' order by "due_at" limit 1) n`;

interface AttachmentRow {
  filename: string;
  content_type: string;
  content_id: string | null;
  disposition: Disposition;
  content: Buffer;
}

/**
 * Delivers PENDING emails over SMTP, in every worker process (docs/delivery.md). It claims due emails in
 * batches, sends them concurrently over the process's SMTP connections, DKIM-signed with the sender domain's
 * key, begins its SMTP transaction only while the email is still its to send (TransactionGate), hands it over
 * to the server under a mark that survives the process (HandOver), and marks it SENT
 * (with its `email.sent` event) once the server accepted it. Transient failures retry with exponential
 * backoff; a permanent refusal marks the email FAILED with the server's reply. An email the suppression list
 * holds back is not sent: SUPPRESSED, with its `email.suppressed` event.
 */
export class DeliveryPump {
  private readonly options: PumpOptions;
  private readonly orm: Orm;
  private readonly config: Config;
  private readonly smtp: Mailer;
  private readonly gate: TransactionGate;
  private readonly handOver: HandOver;
  private readonly logger: Logger;
  private readonly defaultRate: number;
  private readonly loop: WakeLoop;
  private readonly outcomes: OutcomeWriter;
  private readonly keys: DkimKeys;
  private readonly budget: ByteBudget;
  private readonly leases: LeaseKeeper;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    deps: Pick<Deps, 'orm' | 'mailer' | 'logger' | 'config'>,
    private readonly bodies: DeferredBodies,
    options: Partial<PumpOptions> = {},
  ) {
    this.options = { ...PUMP_DEFAULTS, leaseMs: deps.config.DELIVERY_LEASE_MS, ...options };
    this.orm = deps.orm;
    this.config = deps.config;
    this.smtp = deps.mailer;
    this.gate = new TransactionGate(deps.config.DATABASE_URL, deps.logger);
    this.handOver = new HandOver(deps.config.DATABASE_URL, deps.logger);
    this.logger = deps.logger;
    this.defaultRate = deps.config.EMAIL_RATE_PER_SECOND;
    this.loop = new WakeLoop(deps.config.DATABASE_URL, () => this.pass(), deps.logger, {
      name: 'email delivery',
      channel: DELIVERY_CHANNEL,
      pollIntervalMs: this.options.pollIntervalMs,
    });
    this.outcomes = new OutcomeWriter(
      (batch) => deps.orm.em.fork().transactional((tx) => writeOutcomes(tx, batch)),
      deps.logger,
      () => this.loop.wake(),
    );
    this.keys = new DkimKeys(deps.orm, deps.config);
    this.budget = new ByteBudget(this.options.maxBytesInFlight);
    this.leases = new LeaseKeeper(deps.orm, deps.logger, this.options.leaseMs);
  }

  start(): Promise<void> {
    this.leases.start();
    return this.loop.start();
  }

  /**
   * Stops claiming, lets the sends under way finish and writes their outcomes: those the database refuses
   * are left to their leases rather than retried for ever (OutcomeWriter.close), so that a stop always ends.
   */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.all(this.inFlight);
    await this.outcomes.close();
    this.leases.stop();
    await this.gate.close();
    await this.handOver.close();
  }

  private async pass(): Promise<number> {
    const { batchSize, concurrency } = this.options;
    while (!this.loop.isStopping) {
      const room = concurrency - this.inFlight.size;
      // Claim in sizeable batches: wait for sends to finish rather than claim a few emails at a time.
      if (room < Math.min(batchSize, concurrency) / 2) {
        await Promise.race(this.inFlight);
        continue;
      }
      const limit = Math.min(batchSize, room);
      const { seen, claimed, finished } = await claimDue(this.orm.em.fork(), {
        limit,
        leaseMs: this.options.leaseMs,
        defaultRate: this.defaultRate,
        maxRate: this.config.MAX_EMAIL_RATE_PER_SECOND,
      });
      if (finished) this.logger.info({ emails: finished }, 'marked SENT the emails a stopped worker had handed over to SMTP');
      // Unread, the bodies to render are retried as any email that could not be prepared (deliver).
      const renders = await this.bodies.prepare(claimed).catch((err: unknown) => {
        this.logger.warn({ err }, 'could not read what the claimed emails are rendered from');
        return new Map<string, Render>();
      });
      for (const email of claimed) this.track(this.deliver(email, renders.get(email.id)));
      // After the sends start: an ANALYZE must not hold up a batch already claimed.
      if (seen === limit) {
        const analyzed = await analyzeStaleTables(this.orm.em.fork(), seen);
        if (analyzed.length) this.logger.info({ tables: analyzed }, 'analyzed tables whose planner statistics said they were nearly empty');
      }
      if (seen < limit) break;
    }
    const [row] = await this.orm.em.fork().execute<{ ms: number | null }[]>(NEXT_DUE);
    return row?.ms ?? Number.POSITIVE_INFINITY;
  }

  private track(send: Promise<void>): void {
    this.inFlight.add(send);
    void send.finally(() => this.inFlight.delete(send));
  }

  /** `render`: the body's render, for an email stored without one. */
  private async deliver(email: ClaimedEmail, render: Render | undefined): Promise<void> {
    this.leases.hold(email.id, email.leaseId);
    const bytes = await this.budget.acquire(email.sizeBytes);
    try {
      const outcome = await this.attempt(email, render);
      if (outcome) this.outcomes.add(outcome);
    } catch (err) {
      // Reading the key or the attachments failed: the database, not the message; try again later.
      this.logger.warn({ err, emailId: email.id }, 'could not prepare an email for sending');
      this.outcomes.add(this.transient(email, err instanceof Error ? err.message : String(err)));
    } finally {
      this.budget.release(bytes);
      // The outcome is written within milliseconds, well inside the lease.
      this.leases.release(email.id);
    }
  }

  /**
   * The attempt's outcome; null when the email stopped being this worker's to send after its transaction began,
   * or was taken back because its body did not render, which leaves nothing to record.
   */
  private async attempt(email: ClaimedEmail, render: Render | undefined): Promise<Outcome | null> {
    if (email.suppressed) {
      return { kind: 'suppressed', id: email.id, campaignId: email.campaignId, leaseId: email.leaseId, reason: email.suppressed };
    }
    const dkim = await this.keys.get(email.projectId, email.fromAddress);
    if (!dkim) {
      return {
        kind: 'failed',
        id: email.id,
        campaignId: email.campaignId,
        leaseId: email.leaseId,
        error: 'The sender domain was removed from the project before the email was sent',
      };
    }
    const message = email.relayedMessageId
      ? signedRelayedMessage(email, await this.relayedMessage(email.relayedMessageId), dkim)
      : await this.composed(email, render, dkim);
    if (!message) return null;
    const connection = await this.smtp.acquire(email.toAddress).catch((err: unknown) => err);
    if (!(connection instanceof SmtpConnection)) return this.refused(email, connection);
    try {
      let staged: Promise<void> = Promise.resolve();
      const begun = await this.gate.pass(email.id, email.leaseId, () => {
        staged = connection.stage(message.envelope, message.raw);
        // Looked at below; until then a refusal is not "unhandled".
        staged.catch(() => undefined);
      });
      // Not begun: suspended (to be held), withdrawn, or another worker's; the lease goes back.
      if (!begun) return { kind: 'released', id: email.id, leaseId: email.leaseId };
      await staged;
      let verdict: Promise<void> = Promise.resolve();
      const handed = await this.handOver.pass(email.id, email.leaseId, () => {
        verdict = connection.endData();
      });
      if (!handed) return null;
      await verdict;
      return { kind: 'sent', id: email.id, campaignId: email.campaignId, at: new Date() };
    } catch (err) {
      return this.refused(email, err);
    } finally {
      // A message still staged (its hand-over failed or was refused) is abandoned with its connection.
      this.smtp.release(connection);
    }
  }

  private refused(email: ClaimedEmail, err: unknown): Outcome {
    const failure = classifySmtpFailure(err);
    if (failure.permanent)
      return { kind: 'failed', id: email.id, campaignId: email.campaignId, leaseId: email.leaseId, error: failure.reason };
    this.logger.warn({ emailId: email.id, attempts: email.attempts, reason: failure.reason }, 'SMTP hand-off failed; will retry');
    return this.transient(email, failure.reason);
  }

  /** A retry with backoff, or FAILED once the email is too old to keep trying. */
  private transient(email: ClaimedEmail, reason: string): Outcome {
    const delayMs = backoffMs(email.attempts - 1, this.options.retryBaseMs, this.options.retryMaxMs);
    if (Date.now() + delayMs - email.dueSince.getTime() > this.options.giveUpAfterMs) {
      return {
        kind: 'failed',
        id: email.id,
        campaignId: email.campaignId,
        leaseId: email.leaseId,
        error: `Gave up after ${email.attempts} attempts: ${reason}`,
      };
    }
    return { kind: 'retry', id: email.id, leaseId: email.leaseId, delayMs, error: reason };
  }

  /** The stored body, or the body rendered now; null when it did not render, and the email was taken back. */
  private async bodyOf(email: ClaimedEmail, render: Render | undefined): Promise<RenderedBody | null> {
    if (email.html !== null) return { html: email.html, text: email.text };
    if (!render) throw new Error('what its body is rendered from could not be read');
    try {
      return await render();
    } catch (err) {
      if (!(err instanceof TemplateError)) throw err;
      await this.bodies.unrendered(email, err.message);
      return null;
    }
  }

  /**
   * The message built from the email's fields, with what sending adds (decorate.ts); null when its body, rendered
   * now, did not render and the email was taken back.
   */
  private async composed(
    email: ClaimedEmail,
    render: Render | undefined,
    dkim: SigningKey,
  ): Promise<{ envelope: Envelope; raw: Buffer } | null> {
    const body = await this.bodyOf(email, render);
    if (!body) return null;
    const attachments = email.attachmentCount > 0 ? await this.attachmentsOf(email.id) : [];
    const outgoing = {
      id: email.id,
      to: { email: email.toAddress, name: email.toName },
      cc: email.cc,
      bcc: email.bcc,
      from: { email: email.fromAddress, name: email.fromName },
      replyTo: email.replyTo,
      subject: email.subject,
      html: body.html,
      text: body.text,
      headers: email.headers,
      attachments,
    };
    return signedMessage(decorate(this.config, outgoing, email), dkim);
  }

  private async relayedMessage(id: string): Promise<{ raw: Buffer; messageId: string | null }> {
    const [row] = await this.orm.em
      .fork()
      .execute<{ raw: Buffer; message_id: string | null }[]>(`select "raw", "message_id" from relayed_messages where "id" = ?`, [id]);
    if (!row) throw new Error(`the relayed message ${id} is gone`);
    return { raw: row.raw, messageId: row.message_id };
  }

  private async attachmentsOf(emailId: string): Promise<OutgoingAttachment[]> {
    const rows = await this.orm.em
      .fork()
      .execute<AttachmentRow[]>(
        `select "filename", "content_type", "content_id", "disposition", "content" from email_attachments where "email_id" = ? order by "position"`,
        [emailId],
      );
    return rows.map((r) => ({
      filename: r.filename,
      contentType: r.content_type,
      contentId: r.content_id,
      disposition: r.disposition,
      content: r.content,
    }));
  }
}
