import { connect, type Socket } from 'node:net';

// nodemailer's own connectionTimeout.
const CONNECT_TIMEOUT_MS = 2 * 60_000;

/**
 * A TCP connection to the SMTP server with Nagle's algorithm off, for nodemailer's `getSocket`, which then
 * speaks SMTP over it (and TLS when the URL asks for it). With Nagle on, the message's last small write (the
 * terminating dot) waits for the ACK of the data before it, which the server delays (40 ms on Linux) while it
 * waits for that very dot: each connection sent one message every ~40 ms, whatever the CPU could do.
 */
export function connectWithoutNagle(host: string, port: number, callback: (err: Error | null, socketOptions?: { connection: Socket }) => void): void {
  const socket = connect({ host, port, noDelay: true, timeout: CONNECT_TIMEOUT_MS });
  const fail = (err: Error) => {
    socket.destroy();
    callback(err);
  };
  socket.once('error', fail);
  socket.once('timeout', () => fail(new Error(`Connection timeout to ${host}:${port}`)));
  socket.once('connect', () => {
    socket.off('error', fail);
    // From here on nodemailer watches the connection (its own timeouts included).
    socket.setTimeout(0);
    socket.removeAllListeners('timeout');
    callback(null, { connection: socket });
  });
}
