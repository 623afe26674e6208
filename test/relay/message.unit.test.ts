import { withoutBcc } from '../../src/modules/relay/message';

describe('withoutBcc', () => {
  it('drops every Bcc field with its folded lines and keeps the rest byte for byte', () => {
    const raw = Buffer.from(
      'From: a@x.test\r\nBcc: b@x.test,\r\n c@x.test\r\nTo: d@x.test\r\nbcc:e@x.test\r\n\r\nBcc: in the body stays\r\n',
    );
    expect(withoutBcc(raw).toString()).toBe('From: a@x.test\r\nTo: d@x.test\r\n\r\nBcc: in the body stays\r\n');
  });

  it('returns a message without Bcc unchanged, bare LF line ends included', () => {
    const raw = Buffer.from('From: a@x.test\nSubject: \xe9\n\nBody\n', 'latin1');
    expect(withoutBcc(raw)).toBe(raw);
  });
});
