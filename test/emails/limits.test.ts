import { startStack, type TestStack } from '../helpers/stack';
import { parseMail } from '../helpers/mail';
import { fileOf, recipient, send, settled, storedCounts } from './helpers';
import { senderTenant, type SenderTenant } from '../helpers/tenants';

const MB = 1024 * 1024;

// Attachment limits raised so that attachments alone can make a message larger than 40 MB.
let stack: TestStack;
let sender: SenderTenant;
beforeAll(async () => {
  stack = await startStack({ env: { MAX_ATTACHMENTS_COUNT: '2', MAX_ATTACHMENT_SIZE_MB: '60' }, pump: true, terminateWorkflows: true });
  sender = await senderTenant(stack);
});
afterAll(() => stack?.close());

const attachment = (bytes: number, name = 'data.bin') => ({
  filename: name,
  content: fileOf(bytes),
  contentType: 'application/octet-stream',
});
const body = (attachments: unknown[]) => ({ to: recipient(), from: sender.from, subject: 'Large', body: '<p>Files</p>', attachments });

describe('/v1/send size limits', () => {
  it('takes the attachment count from MAX_ATTACHMENTS_COUNT', async () => {
    const res = await send(stack, sender.project, body([attachment(1), attachment(1), attachment(1)])).expect(422);
    expect(res.body.error.errors).toEqual([expect.objectContaining({ field: 'attachments', message: 'At most 2 attachments per email' })]);
  });

  it('refuses a message over 40 MB with 413 PAYLOAD_TOO_LARGE, storing nothing', async () => {
    // 2 × 15.5 MB of files are 41.3 MB in base64, as they travel.
    const res = await send(stack, sender.project, body([attachment(15.5 * MB), attachment(15.5 * MB)])).expect(413);
    expect(res.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { limit: 40 * MB } });
    expect(await storedCounts(stack, sender.project.id)).toEqual({ emails: 0, contacts: 0, events: 0 });
  });

  // The body limit, the largest valid request and no more, is tested with the default limits in test/http/edges.test.ts.

  // Moving 40 MB through the API, PostgreSQL and SMTP takes tens of seconds on a loaded machine.
  it('delivers a message just under 40 MB intact', async () => {
    const request = body([attachment(14.5 * MB, 'one.bin'), attachment(14.5 * MB, 'two.bin')]);
    const res = await send(stack, sender.project, request).expect(200);
    expect(await settled(stack, res.body.data.emails[0].email, 150_000)).toMatchObject({ status: 'SENT' });
    const mail = await parseMail(stack.smtp.to(request.to)[0]!);
    expect(mail.attachments.map((a) => [a.filename, (a.content as ArrayBuffer).byteLength])).toEqual([
      ['one.bin', 14.5 * MB],
      ['two.bin', 14.5 * MB],
    ]);
  }, 180_000);
});
