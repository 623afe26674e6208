import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { SmtpConnection } from '../../src/mail/smtp/connection';
import { SmtpError } from '../../src/mail/smtp/errors';
import { SmtpPool } from '../../src/mail/smtp/pool';
import { smtpSettings } from '../../src/mail/smtp-settings';

/** A real SMTP server on loopback with the given options; keeps what it accepted. */
async function server(options: SMTPServerOptions = {}) {
  const accepted: Array<{ from: string; to: string[]; raw: Buffer }> = [];
  let discarded = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    logger: false,
    closeTimeout: 100,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', () => discarded++);
      stream.on('end', () => {
        accepted.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        });
        callback();
      });
    },
    ...options,
  });
  smtp.on('error', () => undefined);
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  return { accepted, discarded: () => discarded, port, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

const message = (lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n`);
const plain = ['From: a@example.test', 'To: b@example.test', 'Subject: Hello', '', 'Hello there.'];
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

async function send(connection: SmtpConnection, to: string | string[], raw: Buffer) {
  await connection.stage({ from: 'a@example.test', to: Array.isArray(to) ? to : [to] }, raw);
  await connection.endData();
}

describe('SMTP client connection', () => {
  const servers: Array<{ close: () => Promise<void> }> = [];
  const started = async (options?: SMTPServerOptions) => {
    const s = await server(options);
    servers.push(s);
    return s;
  };
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  it.each([
    ['with PIPELINING', {}],
    ['without PIPELINING', { hidePIPELINING: true }],
  ])('delivers messages one after another on one connection (%s), dot-stuffed where a line starts with a dot', async (_name, options) => {
    const s = await started({ disabledCommands: ['STARTTLS'], ...options });
    const connection = await SmtpConnection.open(smtpSettings(`smtp://127.0.0.1:${s.port}`));
    const dotted = message(['Subject: dots', '', '.leading dot', '..two dots', '.', 'end']);
    await send(connection, 'first@example.test', message(plain));
    await send(connection, 'second@example.test', dotted);
    await connection.close();
    expect(s.accepted.map((m) => m.to)).toEqual([['first@example.test'], ['second@example.test']]);
    expect(s.accepted[0]!.raw.equals(message(plain))).toBe(true);
    expect(s.accepted[1]!.raw.equals(dotted)).toBe(true);
  });

  it.each([
    [
      'ending in a bare line feed',
      'Subject: bare\n\nfirst line\n.dotted after a bare LF\r\nlast\n',
      'Subject: bare\r\n\r\nfirst line\r\n.dotted after a bare LF\r\nlast\r\n',
    ],
    ['ending in a carriage return', 'Subject: cr\r\n\r\nbody\r', 'Subject: cr\r\n\r\nbody\r\n'],
    ['ending without a line break', 'Subject: none\r\n\r\nbody', 'Subject: none\r\n\r\nbody\r\n'],
  ])('sends every line ending as CRLF, however the message ends (%s)', async (_name, raw, received) => {
    const s = await started({ disabledCommands: ['STARTTLS'] });
    const connection = await SmtpConnection.open(smtpSettings(`smtp://127.0.0.1:${s.port}`));
    await send(connection, 'first@example.test', Buffer.from(raw));
    await send(connection, 'second@example.test', message(plain));
    await connection.close();
    expect(s.accepted.map((m) => m.raw.toString())).toEqual([received, message(plain).toString()]);
  });

  it('reports a refused recipient with the reply, and the connection carries the next message', async () => {
    const s = await started({
      disabledCommands: ['STARTTLS'],
      onRcptTo: (address, _session, callback) =>
        address.address.startsWith('nobody') ? callback(Object.assign(new Error('5.1.1 No such user'), { responseCode: 550 })) : callback(),
    });
    const connection = await SmtpConnection.open(smtpSettings(`smtp://127.0.0.1:${s.port}`));
    const refusal = await connection
      .stage({ from: 'a@example.test', to: ['nobody@example.test'] }, message(plain))
      .catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(SmtpError);
    expect(refusal).toMatchObject({ code: 'EENVELOPE', responseCode: 550, response: expect.stringContaining('No such user') });
    expect(connection.usable).toBe(true);
    await send(connection, 'someone@example.test', message(plain));
    expect(s.accepted.map((m) => m.to)).toEqual([['someone@example.test']]);
    await connection.close();
  });

  it.each([
    ['with PIPELINING', {}],
    ['without PIPELINING', { hidePIPELINING: true }],
  ])('sends one message to several recipients in one transaction, and none when one recipient is refused (%s)', async (_name, options) => {
    const s = await started({
      disabledCommands: ['STARTTLS'],
      ...options,
      onRcptTo: (address, _session, callback) =>
        address.address.startsWith('nobody') ? callback(Object.assign(new Error('5.1.1 No such user'), { responseCode: 550 })) : callback(),
    });
    const open = () => SmtpConnection.open(smtpSettings(`smtp://127.0.0.1:${s.port}`));
    let connection = await open();
    await send(connection, ['to@example.test', 'cc@example.test', 'bcc@example.test'], message(plain));
    const refusal = await connection
      .stage({ from: 'a@example.test', to: ['to@example.test', 'nobody@example.test', 'other@example.test'] }, message(plain))
      .catch((err: unknown) => err);
    expect(refusal).toMatchObject({ code: 'EENVELOPE', responseCode: 550 });
    // Pipelined, the server answered DATA for the others: only closing the connection ends that transaction.
    if (!connection.usable) connection = await open();
    await send(connection, 'after@example.test', message(plain));
    await connection.close();
    await until(() => s.accepted.length >= 2);
    expect(s.accepted.map((m) => m.to)).toEqual([['to@example.test', 'cc@example.test', 'bcc@example.test'], ['after@example.test']]);
  });

  it('reports a refusal of the message itself at its end', async () => {
    const s = await started({
      disabledCommands: ['STARTTLS'],
      onData: (stream, _session, callback) => {
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('4.7.1 Try again later'), { responseCode: 451 })));
      },
    });
    const connection = await SmtpConnection.open(smtpSettings(`smtp://127.0.0.1:${s.port}`));
    await connection.stage({ from: 'a@example.test', to: ['b@example.test'] }, message(plain));
    await expect(connection.endData()).rejects.toMatchObject({ code: 'EMESSAGE', responseCode: 451 });
    await connection.close();
  });

  it('abandons a staged message: the server discards it and the connection is not reused', async () => {
    const s = await started({ disabledCommands: ['STARTTLS'] });
    const connection = await SmtpConnection.open(smtpSettings(`smtp://127.0.0.1:${s.port}`));
    await connection.stage({ from: 'a@example.test', to: ['b@example.test'] }, message(plain));
    expect(connection.usable).toBe(false);
    connection.abandon();
    await until(() => s.discarded() > 0);
    expect(s.discarded()).toBe(1);
    expect(s.accepted).toHaveLength(0);
  });

  it('upgrades with STARTTLS when offered, and refuses an untrusted certificate unless the URL allows it', async () => {
    const s = await started({});
    const connection = await SmtpConnection.open(smtpSettings(`smtp://127.0.0.1:${s.port}?tlsRejectUnauthorized=false`));
    await send(connection, 'tls@example.test', message(plain));
    await connection.close();
    expect(s.accepted.map((m) => m.to)).toEqual([['tls@example.test']]);
    await expect(SmtpConnection.open(smtpSettings(`smtp://127.0.0.1:${s.port}`))).rejects.toMatchObject({ code: 'ETLS' });
    const ignored = await SmtpConnection.open(smtpSettings(`smtp://127.0.0.1:${s.port}?ignoreTLS=true`));
    await send(ignored, 'plain@example.test', message(plain));
    await ignored.close();
  });

  it('speaks TLS from the first byte for smtps://', async () => {
    const s = await started({ secure: true });
    const connection = await SmtpConnection.open(smtpSettings(`smtps://127.0.0.1:${s.port}?tlsRejectUnauthorized=false`));
    await send(connection, 'smtps@example.test', message(plain));
    await connection.close();
    expect(s.accepted.map((m) => m.to)).toEqual([['smtps@example.test']]);
  });

  it.each([['PLAIN'], ['LOGIN']])('authenticates with %s, and reports wrong credentials as EAUTH', async (method) => {
    const s = await started({
      disabledCommands: ['STARTTLS'],
      authOptional: false,
      authMethods: [method],
      allowInsecureAuth: true,
      onAuth: (auth, _session, callback) =>
        auth.username === 'relay user' && auth.password === 'p@ss:word'
          ? callback(null, { user: auth.username })
          : callback(new Error('Invalid credentials')),
    });
    const connection = await SmtpConnection.open(smtpSettings(`smtp://relay%20user:p%40ss%3Aword@127.0.0.1:${s.port}`));
    await send(connection, 'auth@example.test', message(plain));
    await connection.close();
    expect(s.accepted.map((m) => m.to)).toEqual([['auth@example.test']]);
    await expect(SmtpConnection.open(smtpSettings(`smtp://relay%20user:wrong@127.0.0.1:${s.port}`))).rejects.toMatchObject({
      code: 'EAUTH',
    });
  });

  it('fails to connect to a port nobody listens on with ECONNECTION', async () => {
    const s = await started({ disabledCommands: ['STARTTLS'] });
    await s.close();
    await expect(SmtpConnection.open(smtpSettings(`smtp://127.0.0.1:${s.port}`))).rejects.toMatchObject({ code: 'ECONNECTION' });
  });
});

describe('SMTP connection pool', () => {
  it('lends at most maxConnections connections at once and reuses those given back', async () => {
    const s = await server({ disabledCommands: ['STARTTLS'] });
    const pool = new SmtpPool(smtpSettings(`smtp://127.0.0.1:${s.port}`), 2);
    const lent = await Promise.all([pool.acquire(), pool.acquire()]);
    let third: SmtpConnection | undefined;
    const waiting = pool.acquire().then((c) => (third = c));
    await new Promise((r) => setTimeout(r, 50));
    expect(third).toBeUndefined();
    pool.release(lent[0]!);
    await waiting;
    expect(third).toBe(lent[0]);
    pool.release(lent[1]!);
    pool.release(third!);
    await pool.close();
    await s.close();
  });
});
