import { crlfLineEnds, crlfLineEndsText, dataTerminator, smtpData } from '../../src/mail/smtp/smtp-data';
import { randomText, seededRandom } from '../helpers/seeded-random';

const data = (message: string) => smtpData(Buffer.from(message)).toString();

describe('smtpData', () => {
  it('returns a message with CRLF line ends and no leading dots as it is', () => {
    const message = Buffer.from('Subject: a\r\n\r\nbody\r\n');
    expect(smtpData(message)).toBe(message);
  });

  it('makes every bare line feed a CRLF and doubles a dot that starts a line, after any line end', () => {
    expect(data('.first\nsecond\r\n.third\n.\nlast')).toBe('..first\r\nsecond\r\n..third\r\n..\r\nlast');
    expect(data('\n\n')).toBe('\r\n\r\n');
  });

  it('ends DATA with CRLF, the dot and CRLF whatever the last byte', () => {
    expect(dataTerminator(smtpData(Buffer.from('a\n'))).toString()).toBe('.\r\n');
    expect(dataTerminator(Buffer.from('a\r')).toString()).toBe('\n.\r\n');
    expect(dataTerminator(Buffer.from('a')).toString()).toBe('\r\n.\r\n');
  });
});

describe('crlfLineEndsText', () => {
  it('makes the line ends crlfLineEnds makes of the same text', () => {
    const pieces = ['a', '\n', '\r', '\r\n', '\n\r', '.', ' '];
    const next = seededRandom(11);
    for (let i = 0; i < 500; i++) {
      const text = randomText(next, pieces, 12);
      expect([text, crlfLineEndsText(text)]).toEqual([text, crlfLineEnds(Buffer.from(text, 'latin1')).toString('latin1')]);
    }
  });
});
