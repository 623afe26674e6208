/**
 * A local SMTP server for the sending benchmarks, run as its own process so that receiving mail does not
 * share an event loop with what is measured. It accepts everything, keeps nothing, and prints
 * `listening <port>` once it accepts connections.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  size: 60 * 1024 * 1024,
  onData: (stream, _session, callback) => {
    stream.resume();
    stream.on('end', () => callback());
  },
});
// The benchmarks kill workers mid-send; their reset connections must not end the sink.
server.on('error', () => undefined);
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.server.address() as AddressInfo).port}`));
