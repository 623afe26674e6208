/**
 * A local SMTP server for benchmarks that must prove what arrived: it counts messages per recipient and per
 * Message-ID (keeping nothing else), in a process of its own. `GET /` on its HTTP port answers the counts
 * as JSON, `POST /reset` starts over. Prints `listening <smtp port> <http port>` once both accept connections.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SinkCounts {
  messages: number;
  recipients: number;
  messageIds: number;
  /** Recipients that received more than one message. */
  repeatedRecipients: number;
}

const perRecipient = new Map<string, number>();
const messageIds = new Set<string>();
let messages = 0;
let repeatedRecipients = 0;

const MESSAGE_ID = /^message-id:\s*(\S+)/im;

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  size: 60 * 1024 * 1024,
  onData: (stream, session, callback) => {
    // The Message-ID is among the headers, in the first few kilobytes.
    let head = '';
    stream.on('data', (chunk: Buffer) => {
      if (head.length < 16_384) head += chunk.toString('latin1');
    });
    stream.on('end', () => {
      messages++;
      const id = MESSAGE_ID.exec(head)?.[1];
      // A copy: the match is a slice that would keep the whole head alive (a million heads outgrew the heap).
      if (id) messageIds.add(Buffer.from(id, 'latin1').toString('latin1'));
      for (const { address } of session.envelope.rcptTo) {
        const n = (perRecipient.get(address) ?? 0) + 1;
        perRecipient.set(address, n);
        if (n === 2) repeatedRecipients++;
      }
      callback();
    });
  },
});

// A client killed mid-conversation resets its connection; that is the benchmark working, not a failure.
smtp.on('error', () => undefined);

const http = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/reset') {
    perRecipient.clear();
    messageIds.clear();
    messages = 0;
    repeatedRecipients = 0;
  }
  const counts: SinkCounts = { messages, recipients: perRecipient.size, messageIds: messageIds.size, repeatedRecipients };
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(counts));
});

smtp.listen(0, '127.0.0.1', () => {
  http.listen(0, '127.0.0.1', () => {
    const port = (server: { address(): AddressInfo | string | null }) => (server.address() as AddressInfo).port;
    console.log(`listening ${port(smtp.server)} ${port(http)}`);
  });
});
