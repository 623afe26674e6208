import { sendWeight } from '../../src/modules/sending/send-batcher';
import type { PendingSend } from '../../src/modules/sending/write';

const MB = 1024 * 1024;

const pending = (recipients: number, body: string, attachmentBytes: number[] = []): PendingSend =>
  ({
    project: {},
    send: {
      content: { subject: 'Hi', body, text: null },
      attachments: attachmentBytes.map((n) => ({ content: Buffer.alloc(n) })),
      recipients: Array.from({ length: recipients }, (_, i) => ({ email: `r${i}@example.test` })),
    },
  }) as unknown as PendingSend;

describe('what a send weighs in a /v1/send group (send-batcher.ts)', () => {
  it('weighs its emails when they are small', () => {
    expect(sendWeight(pending(1, '<p>Hello</p>'))).toBe(1);
    expect(sendWeight(pending(7, '<p>Hello</p>'))).toBe(7);
  });

  it('weighs its megabytes for every email when it carries more, so that a group stays near 50 MB', () => {
    expect(sendWeight(pending(1, 'x'.repeat(3 * MB)))).toBe(4);
    expect(sendWeight(pending(2, '<p>Report attached</p>', [40 * MB]))).toBe(82);
  });
});
