import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { addDomain } from '../domains/helpers';
import { fileOf, recipient, send, storedCounts } from './helpers';
import { senderTenant, type SenderTenant } from '../helpers/tenants';

let stack: TestStack;
let sender: SenderTenant;
beforeAll(async () => {
  stack = await startStack({ pump: true, terminateWorkflows: true });
  sender = await senderTenant(stack);
  // Signing up mails the user in the background; it must land before the cases count what was sent.
  await stack.smtp.waitFor((m) => m.to.includes(sender.user.email.toLowerCase()));
});
afterAll(() => stack?.close());

const MB = 1024 * 1024;
const pdf = { filename: 'a.pdf', content: fileOf(10), contentType: 'application/pdf' };

interface Case {
  name: string;
  /** Changes to a valid body; `undefined` removes the field. */
  body: Record<string, unknown>;
  field: string;
  message?: RegExp;
  code?: string;
}

const cases: Case[] = [
  { name: 'to missing', body: { to: undefined }, field: 'to' },
  { name: 'to not an email', body: { to: 'not-an-email' }, field: 'to', message: /Invalid email address/ },
  { name: 'to a number', body: { to: 42 }, field: 'to', message: /email address/ },
  { name: 'to an empty list', body: { to: [] }, field: 'to', message: /At least one recipient/ },
  { name: 'to 51 recipients', body: { to: Array.from({ length: 51 }, () => recipient()) }, field: 'to', message: /At most 50/ },
  { name: 'a bad recipient in a list', body: { to: [recipient(), 'bad'] }, field: 'to', message: /Recipient 2: Invalid email address/ },
  { name: 'a recipient object without email', body: { to: { name: 'Ada' } }, field: 'to', message: /email/ },
  { name: 'a recipient object with a bad email', body: { to: { name: 'Ada', email: 'bad' } }, field: 'to.email' },
  { name: 'a recipient name with a line break', body: { to: { name: 'Ada\r\nBcc: x@y.z', email: recipient() } }, field: 'to.name' },
  { name: 'subject missing', body: { subject: undefined }, field: 'subject', message: /required unless a template/ },
  { name: 'subject empty', body: { subject: '' }, field: 'subject', code: 'too_small' },
  { name: 'subject with a newline', body: { subject: 'Hello\nBcc: x@y.z' }, field: 'subject', code: 'invalid_string' },
  { name: 'subject of 999 characters', body: { subject: 's'.repeat(999) }, field: 'subject', code: 'too_big' },
  { name: 'subject not a string', body: { subject: 5 }, field: 'subject', code: 'invalid_type' },
  { name: 'body missing', body: { body: undefined }, field: 'body', message: /required unless a template/ },
  { name: 'body empty', body: { body: '' }, field: 'body', code: 'too_small' },
  { name: 'body with a NUL', body: { body: 'a\u0000b' }, field: 'body', code: 'invalid_string' },
  { name: 'body that does not parse', body: { body: '<p>{% if %}</p>' }, field: 'body', code: 'invalid_template' },
  { name: 'subject that does not parse', body: { subject: 'Hi {{ name' }, field: 'subject', code: 'invalid_template' },
  { name: 'from missing', body: { from: undefined }, field: 'from', message: /required unless the template/ },
  { name: 'from not an email', body: { from: 'nobody' }, field: 'from', message: /Invalid email address/ },
  { name: 'from object with a bad email', body: { from: { name: 'X', email: 'bad' } }, field: 'from.email' },
  { name: 'from name with a line break', body: { from: { name: 'X\nY', email: 'hello@example.test' } }, field: 'from.name' },
  { name: 'name with a line break', body: { name: 'X\r\nBcc: a@b.c' }, field: 'name', code: 'invalid_string' },
  { name: 'reply not an email', body: { reply: 'not an email' }, field: 'reply', code: 'invalid_string' },
  { name: 'template not a uuid', body: { template: 'welcome' }, field: 'template', code: 'invalid_string' },
  { name: 'headers not an object', body: { headers: 'X-A: 1' }, field: 'headers', code: 'invalid_type' },
  { name: 'header name with CR LF', body: { headers: { 'X-A\r\nBcc': 'x@y.z' } }, field: 'headers.X-A\r\nBcc', message: /CR or LF/ },
  { name: 'header name with a colon', body: { headers: { 'X-A:': 'v' } }, field: 'headers.X-A:', code: 'invalid_string' },
  { name: 'header value with CR LF', body: { headers: { 'X-A': 'v\r\nBcc: x@y.z' } }, field: 'headers.X-A', message: /CR, LF/ },
  { name: 'header value of 999 characters', body: { headers: { 'X-A': 'v'.repeat(999) } }, field: 'headers.X-A', code: 'too_big' },
  { name: 'header value not a string', body: { headers: { 'X-A': 1 } }, field: 'headers.X-A', code: 'invalid_type' },
  { name: 'a header the service sets', body: { headers: { Bcc: 'x@y.z' } }, field: 'headers.Bcc', code: 'reserved_header' },
  { name: '11 attachments', body: { attachments: Array.from({ length: 11 }, () => pdf) }, field: 'attachments', message: /At most 10/ },
  { name: 'attachments not a list', body: { attachments: pdf }, field: 'attachments', code: 'invalid_type' },
  { name: 'attachment without filename', body: { attachments: [{ ...pdf, filename: undefined }] }, field: 'attachments.0.filename' },
  {
    name: 'attachment filename empty',
    body: { attachments: [{ ...pdf, filename: '' }] },
    field: 'attachments.0.filename',
    code: 'too_small',
  },
  { name: 'attachment filename with a quote', body: { attachments: [{ ...pdf, filename: 'a".pdf' }] }, field: 'attachments.0.filename' },
  { name: 'attachment filename with CR LF', body: { attachments: [{ ...pdf, filename: 'a\r\n.pdf' }] }, field: 'attachments.0.filename' },
  {
    name: 'attachment filename of 256 characters',
    body: { attachments: [{ ...pdf, filename: `${'a'.repeat(252)}.pdf` }] },
    field: 'attachments.0.filename',
    code: 'too_big',
  },
  {
    name: 'attachment content not base64',
    body: { attachments: [{ ...pdf, content: 'not base64!' }] },
    field: 'attachments.0.content',
    message: /base64/,
  },
  {
    name: 'attachment content cut short',
    body: { attachments: [{ ...pdf, content: 'YWJj' + 'YW' }] },
    field: 'attachments.0.content',
    message: /base64/,
  },
  { name: 'attachment content missing', body: { attachments: [{ ...pdf, content: undefined }] }, field: 'attachments.0.content' },
  {
    name: 'attachment contentType not a MIME type',
    body: { attachments: [{ ...pdf, contentType: 'pdf' }] },
    field: 'attachments.0.contentType',
  },
  {
    name: 'attachment contentType missing',
    body: { attachments: [{ ...pdf, contentType: undefined }] },
    field: 'attachments.0.contentType',
  },
  { name: 'attachment contentId with brackets', body: { attachments: [{ ...pdf, contentId: '<a>' }] }, field: 'attachments.0.contentId' },
  {
    name: 'attachment disposition unknown',
    body: { attachments: [{ ...pdf, disposition: 'embedded' }] },
    field: 'attachments.0.disposition',
  },
  {
    name: 'inline attachment without contentId',
    body: { attachments: [{ ...pdf, disposition: 'inline' }] },
    field: 'attachments.0.contentId',
    message: /inline attachment needs a contentId/,
  },
  {
    name: 'attachments over 10 MB',
    body: {
      attachments: [
        { ...pdf, content: fileOf(6 * MB) },
        { ...pdf, content: fileOf(5 * MB) },
      ],
    },
    field: 'attachments',
    message: /11\.0 MB; at most 10 MB/,
  },
  { name: 'subscribed not a boolean', body: { subscribed: 'yes' }, field: 'subscribed', code: 'invalid_type' },
  { name: 'data not an object', body: { data: 'x' }, field: 'data', code: 'invalid_type' },
  { name: 'data with a NUL', body: { data: { note: 'a\u0000' } }, field: 'data.note', code: 'invalid_string' },
  {
    name: 'data with 101 keys',
    body: { data: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i])) },
    field: 'data',
    code: 'too_many_keys',
  },
  {
    name: 'data with a key of 101 characters',
    body: { data: { ['k'.repeat(101)]: 1 } },
    field: `data.${'k'.repeat(101)}`,
    code: 'key_too_long',
  },
  { name: 'data 6 keys deep', body: { data: { a: { b: { c: { d: { e: { f: 1 } } } } } } }, field: 'data.a.b.c.d.e.f', code: 'too_deep' },
];

const valid = () => ({ to: recipient('valid'), from: sender.from, subject: 'Hello', body: '<p>Hi</p>' });

function bodyOf(c: Case): Record<string, unknown> {
  const body: Record<string, unknown> = { ...valid(), ...c.body };
  for (const [key, value] of Object.entries(c.body)) if (value === undefined) delete body[key];
  return body;
}

describe('POST /v1/send refuses bad input, storing and sending nothing', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const before = stack.smtp.messages.length;
    const res = await send(stack, sender.project, bodyOf(c));
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    const error = res.body.error.errors.find((e: { field: string }) => e.field === c.field);
    expect(error).toBeDefined();
    if (c.message) expect(error.message).toMatch(c.message);
    if (c.code) expect(error.code).toBe(c.code);
    expect(await storedCounts(stack, sender.project.id)).toEqual({ emails: 0, contacts: 0, events: 0 });
    expect(stack.smtp.messages.length).toBe(before);
  });

  it('reports every bad field at once', async () => {
    const res = await send(stack, sender.project, { to: 'bad', reply: 'bad', headers: { Bcc: 'x' } }).expect(422);
    expect(res.body.error.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'body',
      'from',
      'headers.Bcc',
      'reply',
      'subject',
      'to',
    ]);
  });

  it('answers a body that is not an object with 422, and malformed JSON with 400', async () => {
    const bearer = `Bearer ${sender.project.secret}`;
    await stack.http().post('/v1/send').set('Authorization', bearer).send(['a']).expect(422);
    const res = await stack
      .http()
      .post('/v1/send')
      .set('Authorization', bearer)
      .set('Content-Type', 'application/json')
      .send('{"to": ')
      .expect(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(await storedCounts(stack, sender.project.id)).toEqual({ emails: 0, contacts: 0, events: 0 });
  });

  it('answers 404 TEMPLATE_NOT_FOUND for a template that does not exist', async () => {
    const res = await send(stack, sender.project, { ...valid(), template: randomUUID() }).expect(404);
    expect(res.body.error.code).toBe('TEMPLATE_NOT_FOUND');
    expect(await storedCounts(stack, sender.project.id)).toEqual({ emails: 0, contacts: 0, events: 0 });
  });

  it('answers 403 INTERNAL_SERVER_ERROR for a sender domain that is pending or unknown', async () => {
    const pending = await addDomain(stack, sender.project);
    for (const from of [`hello@${pending.domain}`, 'hello@unknown.example.test', `hello@sub.${sender.domain}`]) {
      const res = await send(stack, sender.project, { ...valid(), from }).expect(403);
      expect(res.body.error).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', statusCode: 403 });
    }
    expect(await storedCounts(stack, sender.project.id)).toEqual({ emails: 0, contacts: 0, events: 0 });
  });

  it('records nothing for any recipient when a later one fails to render', async () => {
    const own = await senderTenant(stack);
    // Renders for the first recipient; for the second it exceeds the render's memory budget.
    const body = '{% if email contains "second" %}{% for i in (1..100000000) %}xxxxxxxxxx{% endfor %}{% endif %}ok';
    const res = await send(stack, own.project, {
      to: [recipient('first'), recipient('second')],
      from: own.from,
      subject: 'S',
      body,
    }).expect(422);
    expect(res.body.error.errors[0]).toMatchObject({ field: 'body', code: 'invalid_template' });
    expect(await storedCounts(stack, own.project.id)).toEqual({ emails: 0, contacts: 0, events: 0 });
  });

  it('sends a valid request from the same project (the pump is running)', async () => {
    const body = valid();
    await send(stack, sender.project, body).expect(200);
    await stack.smtp.waitFor((m) => m.to.includes(body.to));
  });
});
