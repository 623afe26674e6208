const DOT = 0x2e;
const LF = 0x0a;

/**
 * The message as DATA carries it (RFC 5321 4.5.2): a line that starts with "." gets another, so that no line
 * of the message reads as the terminating dot. Most messages have no such line and are returned as they are.
 */
export function dotStuff(message: Buffer): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  if (message[0] === DOT) {
    parts.push(Buffer.from('.'));
  }
  for (let i = message.indexOf('\n.'); i !== -1; i = message.indexOf('\n.', i + 2)) {
    parts.push(message.subarray(from, i + 1), Buffer.from('.'));
    from = i + 1;
  }
  if (parts.length === 0) return message;
  parts.push(message.subarray(from));
  return Buffer.concat(parts);
}

/** What ends DATA after the message: the dot on a line of its own. */
export function dataTerminator(message: Buffer): Buffer {
  return Buffer.from(message.length > 0 && message[message.length - 1] === LF ? '.\r\n' : '\r\n.\r\n');
}
