/** One reply of the server: its code and its text, the lines of a multi-line reply joined. */
export interface SmtpReply {
  code: number;
  text: string;
}

/**
 * Cuts the server's byte stream into replies (RFC 5321 4.2: "250-..." lines continue a reply, "250 ..." ends
 * it). Replies may arrive split or several in one chunk, as they do when commands are pipelined.
 */
export class ReplyParser {
  private partial = '';
  private lines: string[] = [];

  constructor(private readonly onReply: (reply: SmtpReply) => void) {}

  push(chunk: Buffer): void {
    const text = this.partial + chunk.toString('utf8');
    const lines = text.split('\r\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      this.lines.push(line);
      // "250 text", or a bare "250": the last line of the reply.
      if (line.length < 4 || line[3] === ' ') {
        this.onReply({ code: Number(line.slice(0, 3)) || 0, text: this.lines.join('\n') });
        this.lines = [];
      }
    }
  }
}

/** The capabilities an EHLO reply advertises, by keyword (e.g. "AUTH" → "PLAIN LOGIN"). */
export function extensionsOf(ehlo: SmtpReply): Map<string, string> {
  const extensions = new Map<string, string>();
  for (const line of ehlo.text.split('\n').slice(1)) {
    const [keyword = '', ...params] = line.slice(4).trim().split(/\s+/);
    extensions.set(keyword.toUpperCase(), params.join(' '));
  }
  return extensions;
}
