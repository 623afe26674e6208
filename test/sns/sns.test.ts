import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { SnsServer, type SignedSnsMessage, type UnsignedSnsMessage } from '../helpers/sns-server';
import { recipient, send, settled } from '../emails/helpers';
import { emailState, eventsOf } from '../tracking/helpers';
import { senderTenant } from '../helpers/tenants';

const TOPIC = 'arn:aws:sns:us-east-1:123456789012:postwire-ses';

let stack: TestStack;
let sns: SnsServer;
beforeAll(async () => {
  sns = await SnsServer.start();
  const env = { ...sns.env, SNS_TOPIC_ARNS: `arn:aws:sns:eu-west-1:123456789012:other,${TOPIC}` };
  stack = await startStack({ env, pump: true, terminateWorkflows: true });
});
afterAll(async () => {
  await stack?.close();
  await sns?.close();
});

/** A sent email to a subscribed contact, as SES would have received it. */
async function sentEmail() {
  const sender = await senderTenant(stack);
  const to = recipient();
  const res = await send(stack, sender.project, { to, from: sender.from, subject: 'Hello', body: '<p>Hi</p>', subscribed: true }).expect(
    200,
  );
  const [{ email: emailId, contact }] = res.body.data.emails;
  await settled(stack, emailId);
  return { sender, to, emailId: emailId as string, contactId: contact.id as string, messageId: `<${emailId}@${sender.domain}>` };
}

type Sent = Awaited<ReturnType<typeof sentEmail>>;

/** The SES notification of `kind` for an email, in the shape of Amazon SES's feedback notifications. */
function sesNotification(
  sent: Pick<Sent, 'to' | 'messageId'>,
  kind: 'Delivery' | 'Bounce' | 'Complaint',
  extra: Record<string, unknown> = {},
) {
  const timestamp = '2030-01-02T03:04:05.000Z';
  const body: Record<string, unknown> = {
    notificationType: kind,
    mail: {
      timestamp,
      source: 'hello@example.test',
      messageId: '0100018c5b1e2f3a-ses-own-id-000000',
      destination: [sent.to],
      commonHeaders: { messageId: sent.messageId, subject: 'Hello' },
    },
    ...(kind === 'Delivery' ? { delivery: { timestamp, recipients: [sent.to], smtpResponse: '250 ok' } } : {}),
    ...(kind === 'Bounce'
      ? { bounce: { bounceType: 'Permanent', bounceSubType: 'General', timestamp, bouncedRecipients: [{ emailAddress: sent.to }] } }
      : {}),
    ...(kind === 'Complaint'
      ? { complaint: { timestamp, complainedRecipients: [{ emailAddress: sent.to }], complaintFeedbackType: 'abuse' } }
      : {}),
    ...extra,
  };
  return notification(JSON.stringify(body));
}

const notification = (message: string): UnsignedSnsMessage => ({
  Type: 'Notification',
  MessageId: randomUUID(),
  TopicArn: TOPIC,
  Message: message,
  Timestamp: new Date().toISOString(),
});

/** Posts as SNS does: JSON with Content-Type text/plain. */
const post = (message: SignedSnsMessage | Record<string, unknown> | string) =>
  stack
    .http()
    .post('/webhooks/sns')
    .set('Content-Type', 'text/plain; charset=UTF-8')
    .set('x-amz-sns-message-type', typeof message === 'object' ? String(message.Type) : 'Notification')
    .send(typeof message === 'string' ? message : JSON.stringify(message));

/** Events one transaction recorded share their time: compared in name order. */
const byName = <T extends { name: string }>(events: T[]) => [...events].sort((a, b) => a.name.localeCompare(b.name));

const subscribedOf = async (contactId: string) =>
  (await sql<{ subscribed: boolean }>(stack, 'select subscribed from contacts where id = ?', [contactId]))[0]!.subscribed;

describe('POST /webhooks/sns notifications', () => {
  it('Delivery: DELIVERED at the reported time and email.delivery, once however often SNS delivers it', async () => {
    const sent = await sentEmail();
    const message = sns.sign(sesNotification(sent, 'Delivery'));
    const res = await post(message).expect(200);
    expect(res.body).toEqual({ success: true, data: { type: 'Notification', result: 'recorded', emailId: sent.emailId } });
    expect(await emailState(stack, sent.emailId)).toMatchObject({ status: 'DELIVERED', delivered_at: '2030-01-02 03:04:05+00' });
    const data = { emailId: sent.emailId, subject: 'Hello', from: sent.sender.from, sourceType: 'TRANSACTIONAL', tags: {} };
    expect(await eventsOf(stack, sent.contactId)).toEqual([{ name: 'email.delivery', data }]);

    expect((await post(message).expect(200)).body.data.result).toBe('duplicate');
    expect(await eventsOf(stack, sent.contactId)).toHaveLength(1);
    // The signing certificate was fetched once, then taken from the cache.
    expect(sns.requests.filter((p) => p === new URL(sns.certUrl).pathname)).toHaveLength(1);
  });

  it('Permanent bounce: BOUNCED, email.bounce, and the contact unsubscribed with reason bounce', async () => {
    const sent = await sentEmail();
    await post(sns.sign(sesNotification(sent, 'Bounce'))).expect(200);
    expect(await emailState(stack, sent.emailId)).toMatchObject({ status: 'BOUNCED', bounced_at: expect.any(String) });
    expect(await subscribedOf(sent.contactId)).toBe(false);
    const data = { emailId: sent.emailId, subject: 'Hello', from: sent.sender.from, sourceType: 'TRANSACTIONAL', tags: {} };
    expect(byName(await eventsOf(stack, sent.contactId))).toEqual([
      { name: 'contact.unsubscribed', data: { reason: 'bounce' } },
      { name: 'email.bounce', data: { ...data, bounceType: 'Permanent' } },
      { name: 'suppression.added', data: { email: sent.to, reason: 'BOUNCE', emailId: sent.emailId } },
    ]);
  });

  it('Transient bounce (and Undetermined): BOUNCED and email.bounce, the contact stays subscribed', async () => {
    for (const bounceType of ['Transient', 'Undetermined']) {
      const sent = await sentEmail();
      const bounce = {
        bounceType,
        bounceSubType: 'MailboxFull',
        timestamp: '2030-01-02T03:04:05.000Z',
        bouncedRecipients: [{ emailAddress: sent.to }],
      };
      await post(sns.sign(sesNotification(sent, 'Bounce', { bounce }))).expect(200);
      expect((await emailState(stack, sent.emailId)).status).toBe('BOUNCED');
      expect(await subscribedOf(sent.contactId)).toBe(true);
      expect((await eventsOf(stack, sent.contactId)).map((e) => [e.name, e.data.bounceType])).toEqual([['email.bounce', 'Transient']]);
    }
  });

  it('Complaint: COMPLAINED, never moved back, email.complaint, unsubscribed with reason complaint', async () => {
    const sent = await sentEmail();
    await post(sns.sign(sesNotification(sent, 'Complaint'), { version: '1' })).expect(200);
    // A delivery reported after the complaint records its time but does not move the status back.
    await post(sns.sign(sesNotification(sent, 'Delivery'))).expect(200);
    expect(await emailState(stack, sent.emailId)).toMatchObject({
      status: 'COMPLAINED',
      complained_at: expect.any(String),
      delivered_at: expect.any(String),
    });
    expect(await subscribedOf(sent.contactId)).toBe(false);
    expect(byName(await eventsOf(stack, sent.contactId)).map((e) => [e.name, e.data.reason ?? null])).toEqual([
      ['contact.unsubscribed', 'complaint'],
      ['email.complaint', null],
      ['email.delivery', null],
      ['suppression.added', 'COMPLAINT'],
    ]);
  });

  it('matches by the Message-ID among the original headers too, and acknowledges what is not ours', async () => {
    const sent = await sentEmail();
    const headers = [{ name: 'Message-ID', value: sent.messageId }];
    const viaHeaders = sesNotification({ ...sent, messageId: '<0100018c-ses@email.amazonses.com>' }, 'Delivery');
    const body = JSON.parse(viaHeaders.Message);
    delete body.mail.commonHeaders.messageId;
    body.mail.headers = headers;
    expect((await post(sns.sign({ ...viaHeaders, Message: JSON.stringify(body) })).expect(200)).body.data).toMatchObject({
      result: 'recorded',
      emailId: sent.emailId,
    });

    const foreign = sesNotification({ to: sent.to, messageId: '<0100018c-ses@email.amazonses.com>' }, 'Bounce');
    expect((await post(sns.sign(foreign)).expect(200)).body.data.result).toBe('unmatched');
    const unknown = sesNotification({ to: sent.to, messageId: `<${randomUUID()}@example.test>` }, 'Bounce');
    expect((await post(sns.sign(unknown)).expect(200)).body.data).toMatchObject({ result: 'unmatched' });
    const other = sesNotification(sent, 'Bounce', { notificationType: 'Received' });
    expect((await post(sns.sign(other)).expect(200)).body.data.result).toBe('ignored');
    expect((await post(sns.sign(notification('not json'))).expect(200)).body.data.result).toBe('ignored');
    expect(await subscribedOf(sent.contactId)).toBe(true);
    expect((await eventsOf(stack, sent.contactId)).map((e) => e.name)).toEqual(['email.delivery']);
  });
});

describe('POST /webhooks/sns signature checks', () => {
  it('answers 403 to every message whose signature does not hold, changing nothing', async () => {
    const sent = await sentEmail();
    const good = sns.sign(sesNotification(sent, 'Bounce'));
    const before = await emailState(stack, sent.emailId);
    const refused: Array<[string, SignedSnsMessage]> = [
      ['tampered message', { ...good, Message: good.Message.replace('Permanent', 'Transient') }],
      ['tampered timestamp', { ...good, Timestamp: new Date(0).toISOString() }],
      ['signed with another key', sns.sign(sesNotification(sent, 'Bounce'), { rogue: true })],
      ['signature of version 2 claimed as version 1', { ...good, SignatureVersion: '1' }],
      ['unknown version', { ...good, SignatureVersion: '3' }],
      ['garbage signature', { ...good, Signature: 'AAAA' }],
      ['certificate over http', sns.sign(sesNotification(sent, 'Bounce'), { certUrl: sns.certUrl.replace('https:', 'http:') })],
      [
        'certificate on a host not allowed',
        sns.sign(sesNotification(sent, 'Bounce'), { certUrl: sns.url('/SimpleNotificationService-test.pem', '127.0.0.1') }),
      ],
      [
        'certificate on a look-alike host',
        sns.sign(sesNotification(sent, 'Bounce'), { certUrl: 'https://localhost.evil.example.test/cert.pem' }),
      ],
    ];
    const fetched = sns.requests.length;
    for (const [what, message] of refused) {
      const res = await post(message);
      expect([what, res.status, res.body.error?.code]).toEqual([what, 403, 'INVALID_SIGNATURE']);
    }
    // Only allowed hosts were asked for a certificate.
    expect(sns.requests.slice(fetched).every((p) => p === '/SimpleNotificationService-test.pem')).toBe(true);
    expect(await emailState(stack, sent.emailId)).toEqual(before);
    expect(await subscribedOf(sent.contactId)).toBe(true);
    expect(await eventsOf(stack, sent.contactId)).toEqual([]);
  });

  it('refuses a topic not in SNS_TOPIC_ARNS, a body that is not an SNS message, and an unreachable certificate, changing nothing', async () => {
    const sent = await sentEmail();
    const foreignTopic = await post(sns.sign({ ...sesNotification(sent, 'Bounce'), TopicArn: 'arn:aws:sns:us-east-1:999999999999:spoof' }));
    expect([foreignTopic.status, foreignTopic.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const notJson = await post('{"Type": ');
    expect([notJson.status, notJson.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    const { Signature: _dropped, ...unsigned } = sns.sign(sesNotification(sent, 'Bounce'));
    const missing = await post(unsigned);
    expect([missing.status, missing.body.error.code, missing.body.error.errors[0].field]).toEqual([422, 'VALIDATION_ERROR', 'Signature']);
    const badType = await post({ ...sns.sign(sesNotification(sent, 'Bounce')), Type: 'Spam' });
    expect([badType.status, badType.body.error.code]).toEqual([422, 'VALIDATION_ERROR']);
    const gone = await post(sns.sign(sesNotification(sent, 'Bounce'), { certUrl: sns.url('/no-such-cert.pem') }));
    expect([gone.status, gone.body.error.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(await emailState(stack, sent.emailId)).toMatchObject({ status: 'SENT', bounced_at: null });
    expect(await subscribedOf(sent.contactId)).toBe(true);
    expect(await eventsOf(stack, sent.contactId)).toEqual([]);
  });
});

describe('POST /webhooks/sns subscription confirmation', () => {
  const confirmation = (subscribeUrl: string): UnsignedSnsMessage => ({
    Type: 'SubscriptionConfirmation',
    MessageId: randomUUID(),
    TopicArn: TOPIC,
    Message: `You have chosen to subscribe to the topic ${TOPIC}.`,
    Timestamp: new Date().toISOString(),
    SubscribeURL: subscribeUrl,
    Token: 'token-1',
  });

  it('confirms by visiting SubscribeURL on an allowed host', async () => {
    const path = `/confirm?Action=ConfirmSubscription&Token=${randomUUID()}`;
    const res = await post(sns.sign(confirmation(sns.url(path)))).expect(200);
    expect(res.body).toEqual({ success: true, data: { type: 'SubscriptionConfirmation', result: 'confirmed' } });
    expect(sns.requests).toContain(path);
  });

  it('visits no SubscribeURL off the allowed hosts, nor one of a forged message', async () => {
    const token = randomUUID();
    const offHost = await post(sns.sign(confirmation(sns.url(`/confirm?Token=${token}`, '127.0.0.1'))));
    expect([offHost.status, offHost.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    const forged = {
      ...sns.sign(confirmation(sns.url(`/confirm?Token=${token}`))),
      SubscribeURL: sns.url(`/confirm?Token=${token}&forged=1`),
    };
    expect((await post(forged)).status).toBe(403);
    expect(sns.requests.filter((p) => p.includes(token))).toEqual([]);
  });
});
