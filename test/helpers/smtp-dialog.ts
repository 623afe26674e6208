import net from 'node:net';

/**
 * A raw SMTP client for what no well-behaved client sends: writes each command once the previous answer (or
 * the greeting) arrived and returns every answer, multi-line ones joined. `DATA` payloads are written as given.
 */
export async function smtpDialog(
  port: number,
  commands: Array<string | Buffer>,
  timeoutMs = 60_000,
  host = '127.0.0.1',
): Promise<string[]> {
  const socket = net.connect(port, host);
  const answers: string[] = [];
  let buffer = '';
  let waiting: ((answer: string) => void) | null = null;
  const pending: string[] = [];
  socket.on('data', (chunk) => {
    buffer += chunk.toString('latin1');
    for (;;) {
      const lines = buffer.split('\r\n');
      const end = lines.findIndex((l) => /^\d{3} /.test(l));
      if (end < 0) return;
      const answer = lines.slice(0, end + 1).join('\n');
      buffer = lines.slice(end + 1).join('\r\n');
      if (waiting) {
        const w = waiting;
        waiting = null;
        w(answer);
      } else pending.push(answer);
    }
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const queued = pending.shift();
      if (queued !== undefined) return resolve(queued);
      const timer = setTimeout(
        () => reject(new Error(`no SMTP answer within ${timeoutMs} ms (after ${answers.length} answers)`)),
        timeoutMs,
      );
      void closed.then(() => {
        clearTimeout(timer);
        resolve('(closed)');
      });
      waiting = (answer) => {
        clearTimeout(timer);
        resolve(answer);
      };
    });
  try {
    answers.push(await next());
    for (const command of commands) {
      socket.write(typeof command === 'string' ? `${command}\r\n` : command);
      const answer = await next();
      answers.push(answer);
      if (answer === '(closed)') break;
    }
  } finally {
    socket.end();
    socket.destroy();
  }
  return answers;
}

/** AUTH PLAIN's argument for a user name and password. */
export const plain = (user: string, password: string) => Buffer.from(`\0${user}\0${password}`).toString('base64');
