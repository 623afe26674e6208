import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** When its data ended (Date.now()). */
  at: number;
}

/** A real SMTP server on loopback that keeps what it receives; `down()` makes it refuse connections. */
export class SmtpSink {
  readonly messages: ReceivedMail[] = [];
  /** Replies to RCPT TO by address, e.g. a 550 for a mailbox that does not exist. */
  private readonly refusals = new Map<string, { code: number; message: string }>();
  /** Milliseconds RCPT TO takes to answer, by address: a slow receiving server. */
  private readonly delays = new Map<string, number>();
  /** Replies to the end of DATA by recipient address, e.g. a 451 for a message the server will not take now. */
  private readonly messageRefusals = new Map<string, { code: number; message: string }>();
  /** Milliseconds every RCPT TO and every end of DATA take to answer, unless `slow` set the address's own. */
  private latencyMs = 0;
  /** SMTP transactions begun (MAIL FROM received), whether or not their messages were ever finished. */
  transactionsBegun = 0;
  /** When each transaction began and with which sender, in order. */
  readonly begun: Array<{ at: number; from: string }> = [];
  /** While set, the answers to messages whose data has arrived wait here (see hold()). */
  private held: Array<() => void> | null = null;
  /** While set, the answers to MAIL FROM wait here (see freeze()). */
  private frozen: Array<() => void> | null = null;
  /** Sessions whose message data has begun but not ended: their senders may still be about to finish them. */
  private readonly inData = new Set<string>();
  private server!: SMTPServer;
  port = 0;

  static async start(): Promise<SmtpSink> {
    const sink = new SmtpSink();
    await sink.listen(0);
    return sink;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  private listen(port: number): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      size: 60 * 1024 * 1024,
      logger: false,
      // down() drops open (pooled) connections at once instead of waiting 30 s for clients to quit.
      closeTimeout: 100,
      onMailFrom: (address, _session, callback) => {
        this.transactionsBegun += 1;
        this.begun.push({ at: Date.now(), from: address.address });
        if (this.frozen) return void this.frozen.push(() => callback());
        callback();
      },
      onRcptTo: (address, _session, callback) => {
        const rcpt = address.address.toLowerCase();
        const answer = () => {
          const refusal = this.refusals.get(rcpt);
          if (!refusal) return callback();
          callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
        };
        setTimeout(answer, this.delays.get(rcpt) ?? this.latencyMs);
      },
      onClose: (session) => this.inData.delete(session.id),
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        this.inData.add(session.id);
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          this.inData.delete(session.id);
          const mail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
            at: Date.now(),
          };
          const refusal = mail.to.map((to) => this.messageRefusals.get(to.toLowerCase())).find(Boolean);
          if (refusal) {
            const refuse = () => callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
            return void (this.latencyMs ? setTimeout(refuse, this.latencyMs) : refuse());
          }
          this.messages.push(mail);
          if (this.held) return void this.held.push(() => callback());
          if (this.latencyMs) return void setTimeout(() => callback(), this.latencyMs);
          callback();
        });
      },
    });
    // A client killed mid-conversation (the crash tests kill workers) resets its connection; smtp-server reports
    // that as a server 'error', which would otherwise be thrown out of the test file.
    this.server.on('error', () => undefined);
    return new Promise((resolve) =>
      this.server.listen(port, '127.0.0.1', () => {
        this.port = (this.server.server.address() as AddressInfo).port;
        resolve();
      }),
    );
  }

  async down(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Listens again on the same port. */
  up(): Promise<void> {
    return this.listen(this.port);
  }

  /**
   * Stops answering the end of DATA: from now on a message is kept (the server has it) but not acknowledged,
   * as when its sender dies between its last byte and the server's reply. `release()` ends the hold.
   */
  hold(): void {
    this.held ??= [];
  }

  /** Messages whose data has begun and not ended: a sender may still be about to finish them. */
  get receiving(): number {
    return this.inData.size;
  }

  /** Messages kept but not yet acknowledged under a hold. */
  get holding(): number {
    return this.held?.length ?? 0;
  }

  /**
   * Stops answering MAIL FROM as well: no transaction begun from now on gets as far as its message, so once
   * `receiving` is 0 no sender is about to finish one. `release()` ends it.
   */
  freeze(): void {
    this.frozen ??= [];
  }

  /** Ends a hold and a freeze, answering what they kept waiting (to whichever sender is still there). */
  release(): void {
    const waiting = [...(this.held ?? []), ...(this.frozen ?? [])];
    this.held = null;
    this.frozen = null;
    for (const answer of waiting) answer();
  }

  /** Answers RCPT TO for this address with `code` (e.g. 550 for good, 450 for now) until `accept()`. */
  refuse(address: string, code: number, message: string): void {
    this.refusals.set(address.toLowerCase(), { code, message });
  }

  /** Answers the end of DATA of messages to this address with `code` until `accept()`. */
  refuseMessage(address: string, code: number, message: string): void {
    this.messageRefusals.set(address.toLowerCase(), { code, message });
  }

  accept(address: string): void {
    this.refusals.delete(address.toLowerCase());
    this.messageRefusals.delete(address.toLowerCase());
  }

  /** Makes RCPT TO for this address take `ms` to answer. */
  slow(address: string, ms: number): void {
    this.delays.set(address.toLowerCase(), ms);
  }

  /** Makes every RCPT TO and every end of DATA take `ms` to answer: a slow receiving server (0 ends it). */
  slowAll(ms: number): void {
    this.latencyMs = ms;
  }

  to(address: string): ReceivedMail[] {
    return this.messages.filter((m) => m.to.includes(address.toLowerCase()) || m.to.includes(address));
  }

  /** Resolves once no transaction has begun for `quietMs`: whatever senders still held has gone, or never will. */
  async untilQuiet(quietMs = 2_000, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = -1;
    let since = Date.now();
    for (;;) {
      if (this.transactionsBegun !== last) [last, since] = [this.transactionsBegun, Date.now()];
      if (Date.now() - since >= quietMs) return;
      if (Date.now() > deadline) throw new Error(`the SMTP server did not go quiet within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async waitFor(predicate: (m: ReceivedMail) => boolean, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching email within ${timeoutMs} ms (got ${this.messages.length})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  close(): Promise<void> {
    return this.down();
  }
}
