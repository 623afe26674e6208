import { callbackify } from 'node:util';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Orm } from '../../db/orm';
import type { Logger } from '../../logger';
import { readData, smtpRefusal } from '../../mail/smtp-reply';
import { MalformedMessage } from './parse';
import { projectsTaking, receiveMessage, type InboundDeps } from './receive';

/** Recipients of one message (decisions: at most 50); the next RCPT is 452 4.5.3. */
export const MAX_INBOUND_RECIPIENTS = 50;
const MB = 1024 * 1024;

/**
 * The inbound SMTP server (docs/smtp.md "Inbound"): mail for any address at a verified domain with inbound on
 * is kept for its project; other recipients are 550 5.1.1 at RCPT. SIZE is advertised: a declared size over
 * INBOUND_MAX_SIZE_MB is 552 at MAIL, a message that turns out larger 552 at the end of DATA. Nothing is
 * stored unless the whole message is: 250 answers once it is committed.
 */
export function inboundSmtpServer(deps: InboundDeps & { orm: Orm; logger: Logger }): SMTPServer {
  const limit = deps.config.INBOUND_MAX_SIZE_MB * MB;
  // Which projects each open session's recipients belong to, by session id.
  const projects = new Map<string, Set<string>>();
  const server: SMTPServer = new SMTPServer({
    name: deps.config.INBOUND_MX_HOST,
    banner: 'Postwire inbound',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: limit,
    logger: false,
    closeTimeout: 1_000,
    onConnect: (session, callback) => {
      projects.set(session.id, new Set());
      callback();
    },
    onClose: (session) => {
      projects.delete(session.id);
    },
    onMailFrom: (_address, session, callback) => {
      projects.set(session.id, new Set());
      callback();
    },
    onRcptTo: (address, session, callback) => {
      if (session.envelope.rcptTo.length >= MAX_INBOUND_RECIPIENTS) {
        return callback(smtpRefusal(452, `4.5.3 Too many recipients: at most ${MAX_INBOUND_RECIPIENTS} per message`));
      }
      callbackify(() => projectsTaking(deps.orm.em.fork(), address.address))((err, found) => {
        if (err) {
          deps.logger.error({ err }, 'inbound: looking up a recipient failed');
          return callback(smtpRefusal(451, '4.3.0 Temporary failure, try again later'));
        }
        if (found.length === 0) return callback(smtpRefusal(550, '5.1.1 No mailbox here by that name'));
        const taken = projects.get(session.id) ?? new Set<string>();
        for (const id of found) taken.add(id);
        projects.set(session.id, taken);
        callback();
      });
    },
    onData: (stream, session, callback) => {
      callbackify(() => receive(stream, session))((err, message) => callback(err, message));
    },
  });

  async function receive(stream: SMTPServerDataStream, session: SMTPServerSession) {
    const { raw, exceeded } = await readData(stream);
    if (exceeded) throw smtpRefusal(552, `5.3.4 Message too big: at most ${deps.config.INBOUND_MAX_SIZE_MB} MB`);
    const projectIds = [...(projects.get(session.id) ?? [])];
    try {
      const kept = await receiveMessage(
        deps.orm.em.fork(),
        deps,
        raw,
        {
          ip: session.remoteAddress.replace(/^::ffff:/, ''),
          helo: session.hostNameAppearsAs || session.clientHostname,
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        },
        projectIds,
      );
      return `2.0.0 Ok: kept as ${kept.map((k) => k.id).join(', ')}`;
    } catch (err) {
      if (err instanceof MalformedMessage) throw smtpRefusal(554, `5.6.0 The message could not be parsed: ${err.message.slice(0, 200)}`);
      deps.logger.error({ err }, 'inbound: keeping a message failed');
      throw smtpRefusal(451, '4.3.0 Temporary failure, try again later');
    }
  }
  server.on('error', (err) => deps.logger.warn({ err }, 'inbound SMTP server error'));
  return server;
}
