import { isAscii } from 'node:buffer';
import { connect as tcpConnect, isIP, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { connect as tlsConnect } from 'node:tls';
import type { SmtpSettings } from '../smtp-settings';
import { dataTerminator, smtpData } from './smtp-data';
import { SmtpError } from './errors';
import { ReplyParser, extensionsOf, type SmtpReply } from './replies';

const CONNECT_TIMEOUT_MS = 2 * 60_000;
const GREETING_TIMEOUT_MS = 30_000;
/** RFC 5321 4.5.3.2 lets a server take up to 10 minutes to answer the end of DATA, less for any other command. */
const REPLY_TIMEOUT_MS = 10 * 60_000;
const QUIT_WAIT_MS = 1_000;

/** One message, as the envelope carries it: its sender and every recipient (To, Cc and Bcc alike). */
export interface Envelope {
  from: string;
  to: string[];
}

const positive = (reply: SmtpReply) => reply.code >= 200 && reply.code < 400;

/**
 * One SMTP client connection (RFC 5321), for the delivery pump. Unlike a general-purpose client, it sends a
 * message in two steps: `stage` sends the envelope up to the server's 354 and keeps the message; `endData`
 * writes the message and its terminating dot, which the server needs before it accepts anything,
 * synchronously, when the caller says (in one write: a loopback or LAN write costs about as much as the
 * bytes it carries). A process that dies in between leaves the server a transaction without its end, which
 * it discards.
 *
 * Envelope commands are pipelined when the server offers PIPELINING (RFC 2920); STARTTLS is used whenever it
 * is offered (unless the URL says ignoreTLS), AUTH PLAIN or LOGIN when the URL has credentials.
 */
export class SmtpConnection {
  private socket: Socket;
  private readonly parser = new ReplyParser((reply) => this.received(reply));
  private readonly waiting: Array<{ resolve: (reply: SmtpReply) => void; reject: (err: SmtpError) => void }> = [];
  private extensions = new Map<string, string>();
  private broken: SmtpError | undefined;
  private staged: Buffer | undefined;
  private terminator: Buffer | undefined;

  private constructor(socket: Socket) {
    this.socket = socket;
    this.attach(socket);
  }

  /** Connects, reads the greeting, says EHLO, upgrades to TLS and authenticates as the settings say. */
  static async open(settings: SmtpSettings): Promise<SmtpConnection> {
    const connection = new SmtpConnection(await connectSocket(settings));
    try {
      await connection.greet(settings);
      return connection;
    } catch (err) {
      connection.fail(err instanceof SmtpError ? err : new SmtpError('EPROTOCOL', String(err)));
      throw err;
    }
  }

  /** False once the connection failed, and while a staged message waits for its dot: it cannot carry another. */
  get usable(): boolean {
    return this.broken === undefined && this.terminator === undefined;
  }

  /**
   * MAIL, a RCPT per recipient and DATA, keeping the message as DATA carries it (smtpData) for `endData`.
   * Throws EENVELOPE or EMESSAGE with the server's reply when it refuses (the connection stays usable), or a
   * connection error. A message goes to all its recipients or to none: one refused recipient refuses the
   * transaction, so that a retry never repeats the message to those that took it.
   */
  async stage(envelope: Envelope, message: Buffer): Promise<void> {
    const commands = [
      `MAIL FROM:<${envelope.from}>${this.mailParameters(envelope, message)}`,
      ...envelope.to.map((to) => `RCPT TO:<${to}>`),
      'DATA',
    ];
    const replies: SmtpReply[] = [];
    if (this.extensions.has('PIPELINING')) {
      this.write(`${commands.join('\r\n')}\r\n`);
      replies.push(...(await Promise.all(commands.map(() => this.next()))));
    } else {
      for (const command of commands) {
        const reply = await this.command(command);
        replies.push(reply);
        if (!positive(reply)) break;
      }
    }
    const [mail, ...rest] = replies;
    const rcpt = rest.slice(0, envelope.to.length).find((reply) => !positive(reply));
    const data = rest[envelope.to.length];
    const refusal =
      (mail && !positive(mail) && new SmtpError('EENVELOPE', 'sender refused', mail)) ||
      (rcpt && new SmtpError('EENVELOPE', 'recipient refused', rcpt)) ||
      (data && data.code !== 354 && new SmtpError('EMESSAGE', 'DATA refused', data));
    if (refusal) {
      // A server that took DATA after all now expects a message: only closing the connection ends that.
      if (data?.code === 354) this.fail(refusal);
      else await this.reset().catch(() => undefined);
      throw refusal;
    }
    this.staged = smtpData(message);
    this.terminator = dataTerminator(this.staged);
  }

  /**
   * Writes the staged message and its terminating dot before it returns; the promise settles with the
   * server's answer (EMESSAGE with the reply when it refuses the message).
   */
  endData(): Promise<void> {
    const verdict = this.writeTerminator().then((reply) => {
      if (reply.code !== 250) throw new SmtpError('EMESSAGE', 'message refused', reply);
    });
    // The caller looks at the verdict after the hand-over round; until then a refusal is not "unhandled".
    verdict.catch(() => undefined);
    return verdict;
  }

  private writeTerminator(): Promise<SmtpReply> {
    const [message, terminator] = [this.staged, this.terminator];
    this.staged = undefined;
    this.terminator = undefined;
    if (this.broken) return Promise.reject(this.broken);
    if (!message || !terminator) return Promise.reject(new SmtpError('EPROTOCOL', 'no message is staged on this connection'));
    this.socket.cork();
    this.write(message);
    this.write(terminator);
    this.socket.uncork();
    return this.next();
  }

  /** Gives up the staged message: closing the connection mid-DATA makes the server discard it. */
  abandon(): void {
    this.fail(new SmtpError('ECONNECTION', 'message abandoned before the end of its data'));
  }

  /** QUIT, then close; a staged message is abandoned. */
  async close(): Promise<void> {
    if (this.broken) return;
    if (this.terminator) return this.abandon();
    const quit = this.command('QUIT').catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([quit, new Promise((resolve) => (timer = setTimeout(resolve, QUIT_WAIT_MS)))]);
    clearTimeout(timer);
    this.fail(new SmtpError('ECONNECTION', 'connection closed'));
  }

  private async greet(settings: SmtpSettings): Promise<void> {
    const greeting = await this.next(GREETING_TIMEOUT_MS);
    if (greeting.code !== 220) throw new SmtpError('ECONNECTION', `the server refused the connection: ${greeting.text}`);
    await this.hello();
    if (!settings.secure && !settings.ignoreTLS && this.extensions.has('STARTTLS')) {
      const reply = await this.command('STARTTLS');
      if (reply.code !== 220) throw new SmtpError('ETLS', `STARTTLS refused: ${reply.text}`);
      await this.upgrade(settings);
      await this.hello();
    }
    if (settings.auth) await this.authenticate(settings.auth);
  }

  private async hello(): Promise<void> {
    const name = hostname() || 'localhost';
    const ehlo = await this.command(`EHLO ${name}`);
    if (ehlo.code === 250) {
      this.extensions = extensionsOf(ehlo);
      return;
    }
    const helo = await this.command(`HELO ${name}`);
    if (helo.code !== 250) throw new SmtpError('EPROTOCOL', `HELO refused: ${helo.text}`);
    this.extensions = new Map();
  }

  private async upgrade(settings: SmtpSettings): Promise<void> {
    const plain = this.socket;
    plain.removeAllListeners('data').removeAllListeners('close').removeAllListeners('error').removeAllListeners('timeout');
    // The TLS socket takes over the connection and reports its failures; the plain one must not crash the process.
    plain.on('error', () => undefined);
    const secure = tlsConnect({
      socket: plain,
      servername: isIP(settings.host) ? undefined : settings.host,
      rejectUnauthorized: settings.rejectUnauthorized,
    });
    this.socket = secure;
    this.attach(secure);
    await new Promise<void>((resolve, reject) => {
      secure.once('secureConnect', resolve);
      secure.once('error', (err) => reject(new SmtpError('ETLS', `TLS negotiation failed: ${err.message}`)));
      secure.once('close', () => reject(new SmtpError('ETLS', 'the connection closed during TLS negotiation')));
    });
  }

  private async authenticate({ user, pass }: { user: string; pass: string }): Promise<void> {
    const mechanisms = (this.extensions.get('AUTH') ?? '').toUpperCase().split(' ');
    const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
    let reply: SmtpReply;
    if (mechanisms.includes('LOGIN') && !mechanisms.includes('PLAIN')) {
      reply = await this.command('AUTH LOGIN');
      if (reply.code === 334) reply = await this.command(b64(user));
      if (reply.code === 334) reply = await this.command(b64(pass));
    } else {
      reply = await this.command(`AUTH PLAIN ${b64(`\u0000${user}\u0000${pass}`)}`);
    }
    if (reply.code !== 235) throw new SmtpError('EAUTH', 'authentication failed', reply);
  }

  /** SIZE, BODY=8BITMIME and SMTPUTF8 where the server offers them and the message needs them. */
  private mailParameters(envelope: Envelope, message: Buffer): string {
    let parameters = '';
    if (this.extensions.has('SIZE')) parameters += ` SIZE=${message.length}`;
    if (this.extensions.has('8BITMIME') && !isAscii(message)) parameters += ' BODY=8BITMIME';
    if (this.extensions.has('SMTPUTF8') && !isAscii(Buffer.from(envelope.from + envelope.to.join('')))) parameters += ' SMTPUTF8';
    return parameters;
  }

  private async reset(): Promise<void> {
    const reply = await this.command('RSET');
    if (reply.code !== 250) this.fail(new SmtpError('EPROTOCOL', `RSET refused: ${reply.text}`));
  }

  private command(line: string): Promise<SmtpReply> {
    this.write(`${line}\r\n`);
    return this.next();
  }

  private write(data: string | Buffer): void {
    if (this.broken) throw this.broken;
    this.socket.write(data);
  }

  private next(timeoutMs = REPLY_TIMEOUT_MS): Promise<SmtpReply> {
    if (this.broken) return Promise.reject(this.broken);
    if (this.waiting.length === 0) this.socket.setTimeout(timeoutMs);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private received(reply: SmtpReply): void {
    const waiter = this.waiting.shift();
    // A reply nobody asked for: the server is closing the connection (421) or does not speak SMTP.
    if (!waiter) return this.fail(new SmtpError('ECONNECTION', `unexpected reply: ${reply.text}`));
    if (this.waiting.length === 0) this.socket.setTimeout(0);
    waiter.resolve(reply);
  }

  private attach(socket: Socket): void {
    socket.on('data', (chunk: Buffer) => this.parser.push(chunk));
    socket.on('timeout', () => this.fail(new SmtpError('ETIMEDOUT', 'the SMTP server did not answer in time')));
    socket.on('error', (err) => this.fail(new SmtpError('ECONNECTION', `connection to the SMTP server failed: ${err.message}`)));
    socket.on('close', () => this.fail(new SmtpError('ECONNECTION', 'the SMTP server closed the connection')));
  }

  private fail(err: SmtpError): void {
    if (this.broken) return;
    this.broken = err;
    this.socket.destroy();
    for (const waiter of this.waiting.splice(0)) waiter.reject(err);
  }
}

/** A TCP (or, for smtps, TLS) connection with Nagle's algorithm off: the terminating dot must not wait for an ACK. */
function connectSocket(settings: SmtpSettings): Promise<Socket> {
  const { host, port } = settings;
  const socket = settings.secure
    ? tlsConnect({ host, port, servername: isIP(host) ? undefined : host, rejectUnauthorized: settings.rejectUnauthorized })
    : tcpConnect({ host, port });
  socket.setNoDelay(true);
  socket.setTimeout(CONNECT_TIMEOUT_MS);
  return new Promise((resolve, reject) => {
    const failed = (err: SmtpError) => {
      socket.destroy();
      reject(err);
    };
    socket.once('error', (err) =>
      failed(new SmtpError(settings.secure ? 'ETLS' : 'ECONNECTION', `could not connect to ${host}:${port}: ${err.message}`)),
    );
    socket.once('timeout', () => failed(new SmtpError('ETIMEDOUT', `connection timeout to ${host}:${port}`)));
    socket.once(settings.secure ? 'secureConnect' : 'connect', () => {
      socket.removeAllListeners('error').removeAllListeners('timeout');
      socket.setTimeout(0);
      resolve(socket);
    });
  });
}
