import type { AddressInfo } from 'node:net';
import { callbackify } from 'node:util';
import { SMTPServer } from 'smtp-server';
import type { Deps } from '../../deps';
import { SIMULATOR_DOMAIN } from '../../mail/simulator-domain';
import { simulatedOutcomeOf, type SimulatedOutcome } from './addresses';
import { simulateFeedback } from './feedback';
import { refusesSoftbounce } from './softbounce';

const refusal = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

function messageIdOf(raw: string): string | null {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  return /^Message-ID:\s*(<[^>\r\n]+>)/im.exec(head)?.[1] ?? null;
}

/**
 * The receiving side of the simulator addresses (docs/sandbox.md): an SMTP server on loopback, in the process
 * that runs the delivery pump, to which the mailer routes the simulator domain. The pump sends to it as to any
 * server; what it answers and the feedback it reports afterwards depend on the mailbox.
 */
export class Simulator {
  private readonly pending = new Set<Promise<void>>();

  private constructor(
    private readonly deps: Pick<Deps, 'orm' | 'config' | 'logger' | 'mailer'>,
    private readonly server: SMTPServer,
  ) {}

  /** Starts the server and routes the simulator domain of `deps.mailer` to it. */
  static async start(deps: Pick<Deps, 'orm' | 'config' | 'logger' | 'mailer'>): Promise<Simulator> {
    let simulator: Simulator | undefined;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      size: 60 * 1024 * 1024,
      logger: false,
      closeTimeout: 100,
      onRcptTo: (address, _session, callback) => {
        if (simulatedOutcomeOf(address.address)) return callback();
        callback(refusal(550, `5.1.1 <${address.address}>: no such simulator mailbox`));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const recipients = session.envelope.rcptTo.map((r) => r.address);
          callbackify(() => simulator!.receive(recipients, raw))((err, answer) => {
            if (!err) return callback(answer ? refusal(answer.code, answer.message) : null);
            deps.logger.error({ err }, 'sandbox: could not answer a message');
            callback(refusal(451, '4.3.0 The simulator could not answer; try again later'));
          });
        });
      },
    });
    // A sender that drops its connection mid-conversation is no failure of the simulator.
    server.on('error', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    simulator = new Simulator(deps, server);
    const { port } = server.server.address() as AddressInfo;
    deps.mailer.route(SIMULATOR_DOMAIN, {
      host: '127.0.0.1',
      port,
      secure: false,
      ignoreTLS: true,
      rejectUnauthorized: false,
      auth: undefined,
    });
    deps.logger.info({ port }, `sandbox: ${SIMULATOR_DOMAIN} is simulated`);
    return simulator;
  }

  /** The refusal to answer the message with, or null once it is accepted and its feedback scheduled. */
  private async receive(recipients: string[], raw: string): Promise<{ code: number; message: string } | null> {
    const messageId = messageIdOf(raw);
    const outcomes = recipients.map(simulatedOutcomeOf).filter((o): o is SimulatedOutcome => o !== null);
    if (!messageId) return { code: 554, message: '5.6.0 The message has no Message-ID' };
    if (outcomes.includes('softbounce') && (await refusesSoftbounce(this.deps.orm, messageId))) {
      return { code: 451, message: '4.2.0 Mailbox temporarily unavailable (simulated soft bounce); try again later' };
    }
    for (const outcome of outcomes) this.track(simulateFeedback(this.deps, outcome, { messageId, raw }));
    return null;
  }

  private track(work: Promise<void>): void {
    const done = work
      .catch((err: unknown) => this.deps.logger.error({ err }, 'sandbox: could not record a simulated outcome'))
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  /** Stops accepting mail and waits for the feedback already scheduled. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await Promise.all([...this.pending]);
  }
}
