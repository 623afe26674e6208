import { readFileSync } from 'node:fs';
import { callbackify } from 'node:util';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import { digest } from '../../crypto/keys';
import type { Orm } from '../../db/orm';
import type { Logger } from '../../logger';
import { isLoopback, readData, smtpRefusal } from '../../mail/smtp-reply';
import { Project } from '../projects/entities';
import { simulatorRefusal } from '../sandbox/addresses';
import { Email } from '../users/schemas';
import { assertMayRelay, relayMessage, type RelayDeps } from './accept';

/** The largest relayed message, as for /v1/send (docs/sending.md "Size"). */
export const MAX_RELAY_BYTES = 40 * 1024 * 1024;

const failure = () => smtpRefusal(451, '4.3.0 Temporary failure, try again later');

/** An error that is already an SMTP answer passes through; anything else is logged and answered 451 4.3.0. */
function asAnswer(logger: Logger, what: string, err: unknown): Error {
  if (err instanceof Error && typeof (err as { responseCode?: unknown }).responseCode === 'number') return err;
  logger.error({ err }, `SMTP relay: ${what} failed`);
  return failure();
}

function tlsOptions(config: RelayDeps['config']): Partial<SMTPServerOptions> {
  if (!config.RELAY_TLS_CERT || !config.RELAY_TLS_KEY) return { disabledCommands: ['STARTTLS'] };
  return { cert: readFileSync(config.RELAY_TLS_CERT), key: readFileSync(config.RELAY_TLS_KEY) };
}

/**
 * The SMTP relay (docs/smtp.md "Relay"): submission for applications that only speak SMTP. AUTH PLAIN or
 * LOGIN with any user name and the project's secret key as the password; STARTTLS with the deployment's
 * certificate when configured, and AUTH without TLS only from loopback unless RELAY_ALLOW_INSECURE_AUTH.
 * Each envelope recipient becomes one email through the pipeline of /v1/send; 250 answers once all are queued.
 */
export function relaySmtpServer(deps: RelayDeps & { orm: Orm; logger: Logger }): SMTPServer {
  const { config, logger } = deps;
  const projectOf = (session: SMTPServerSession) => (session.user as string | undefined) ?? null;

  async function authenticate(password: string, session: SMTPServerSession): Promise<{ user: string }> {
    if (!session.secure && !config.RELAY_ALLOW_INSECURE_AUTH && !isLoopback(session.remoteAddress)) {
      throw smtpRefusal(538, '5.7.11 Encryption required: use STARTTLS before AUTH');
    }
    const invalid = smtpRefusal(535, "5.7.8 Authentication failed: the password must be the project's secret key (sk_…)");
    if (!password.startsWith('sk_')) throw invalid;
    const [row] = await deps.orm.em
      .fork()
      .execute<{ id: string }[]>(`select "id" from projects where "secret_key_digest" = ? limit 1`, [digest(password)]);
    if (!row) throw invalid;
    return { user: row.id };
  }

  async function mailFrom(address: string, session: SMTPServerSession): Promise<void> {
    const projectId = projectOf(session);
    if (!projectId) throw smtpRefusal(530, '5.7.0 Authentication required: AUTH with the secret key first');
    const em = deps.orm.em.fork();
    const project = await em.findOneOrFail(Project, { id: projectId });
    await assertMayRelay(em, config, project, address);
  }

  function rcptTo(address: string, session: SMTPServerSession): void {
    if (session.envelope.rcptTo.length >= config.RELAY_MAX_RECIPIENTS) {
      throw smtpRefusal(452, `4.5.3 Too many recipients: at most ${config.RELAY_MAX_RECIPIENTS} per message`);
    }
    if (!Email.safeParse(address).success) throw smtpRefusal(553, '5.1.3 Not a valid recipient address');
    const simulator = simulatorRefusal(config, address);
    if (simulator) throw smtpRefusal(550, `5.1.1 ${address} ${simulator}`);
  }

  async function data(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<string> {
    const { raw, exceeded } = await readData(stream);
    if (exceeded) throw smtpRefusal(552, '5.3.4 Message too big: at most 40 MB');
    const em = deps.orm.em.fork();
    const project = await em.findOneOrFail(Project, { id: projectOf(session)! });
    const recipients = session.envelope.rcptTo.map((r) => r.address);
    const relayed = await relayMessage(em, deps, project, { raw, recipients });
    return relayed.duplicate ? `2.0.0 Ok: already queued as ${relayed.queueId}` : `2.0.0 Ok: queued as ${relayed.queueId}`;
  }

  const server: SMTPServer = new SMTPServer({
    name: new URL(config.PUBLIC_URL).hostname,
    banner: 'Postwire relay',
    authMethods: ['PLAIN', 'LOGIN'],
    // Checked in onAuth and onMailFrom, to answer with the codes of docs/smtp.md.
    authOptional: true,
    allowInsecureAuth: true,
    size: MAX_RELAY_BYTES,
    logger: false,
    closeTimeout: 1_000,
    ...tlsOptions(config),
    onAuth: (auth, session, callback) => {
      callbackify(() => authenticate(auth.password ?? '', session))((err, user) => callback(err ?? null, user));
    },
    onMailFrom: (address, session, callback) => {
      callbackify(() => mailFrom(address.address, session))((err) => callback(err ? asAnswer(logger, 'MAIL FROM', err) : null));
    },
    onRcptTo: (address, session, callback) => {
      try {
        rcptTo(address.address, session);
        callback();
      } catch (err) {
        callback(asAnswer(logger, 'RCPT TO', err));
      }
    },
    onData: (stream, session, callback) => {
      callbackify(() => data(stream, session))((err, message) => callback(err ? asAnswer(logger, 'DATA', err) : null, message));
    },
  });
  server.on('error', (err) => logger.warn({ err }, 'SMTP relay server error'));
  return server;
}
