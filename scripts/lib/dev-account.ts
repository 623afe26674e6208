import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { dataDir, shownDataDir } from './paths';

/** What a developer needs for a first send, made once through the API and kept in .data/dev-account.json. */
export interface DevAccount {
  email: string;
  password: string;
  project: { id: string; public: string; secret: string };
  domain: { id: string; name: string };
  sender: string;
  templateId: string;
  workflowId: string;
  /** The sample contacts were made (once: a later start does not make again those you deleted). */
  sampleContacts: boolean;
  /** The endpoint to the development webhook capture, with its signing secret (the capture checks with it). */
  webhook?: { id: string; secret: string };
}

export const DEV_EVENT = 'signed-up';

/**
 * The sample contacts the account starts with: the simulator addresses, subscribed, so that the README's
 * campaign reaches them (a contact made by `/v1/send` is not subscribed, docs/contacts.md).
 */
export const SAMPLE_CONTACTS = ['delivered', 'open', 'click', 'softbounce', 'bounce', 'complaint'].map((who) => ({
  email: `${who}@simulator.postwire.test`,
  data: { firstName: who[0]!.toUpperCase() + who.slice(1), plan: who === 'click' || who === 'open' ? 'pro' : 'free' },
}));

/** Where the account is kept, and the names it is made with (tests give their own). */
export interface DevAccountOptions {
  file: string;
  email: string;
  domain: string;
  /**
   * The raw verification mail the API sent to this address (the mail capture under `npm start`): its link
   * verifies the account as a person's click would. Without it the account stays unverified.
   */
  inbox?: (to: string) => Promise<Buffer | string>;
  /** The development webhook capture's address: the account gets an endpoint to it, once. */
  webhookCaptureUrl?: string;
}

const defaults: DevAccountOptions = {
  file: path.join(dataDir, 'dev-account.json'),
  email: 'dev@postwire.test',
  domain: 'dev.postwire.test',
};

interface Answer {
  status: number;
  body: Record<string, unknown>;
  cookie: string | null;
}

class Api {
  constructor(private readonly base: string) {}

  async call(method: string, route: string, auth: { key?: string; cookie?: string } = {}, body?: object): Promise<Answer> {
    const res = await fetch(new URL(route, this.base), {
      method,
      headers: {
        ...(body ? { 'Content-Type': 'application/json' } : {}),
        ...(auth.key ? { Authorization: `Bearer ${auth.key}` } : {}),
        ...(auth.cookie ? { Cookie: auth.cookie } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    const cookie =
      res.headers
        .getSetCookie()
        .find((c) => c.startsWith('postwire_session='))
        ?.split(';')[0] ?? null;
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, cookie };
  }

  async expect(status: number, method: string, route: string, auth: { key?: string; cookie?: string }, body?: object): Promise<Answer> {
    const answer = await this.call(method, route, auth, body);
    if (answer.status !== status) throw new Error(`${method} ${route} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer;
  }
}

const read = (file: string): Partial<DevAccount> =>
  fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<DevAccount>) : {};

/** A session for the development account: its login, or a signup when the database does not know it yet. */
async function session(api: Api, email: string, password: string): Promise<string> {
  const login = await api.call('POST', '/auth/login', {}, { email, password });
  if (login.status === 200 && login.cookie) return login.cookie;
  const signup = await api.call('POST', '/auth/signup', {}, { email, password });
  if (signup.status === 200 && signup.cookie) return signup.cookie;
  throw new Error(`the development account ${email} could not log in or sign up (${signup.status}); remove .data to start afresh`);
}

/** The token of the link in a verification mail (its HTML part may be quoted-printable). */
export function verificationToken(raw: Buffer | string): string | null {
  const text = raw
    .toString()
    .replace(/=\r?\n/g, '')
    .replace(/=3D/gi, '=');
  return /verify-email\?token=([\w-]+)/.exec(text)?.[1] ?? null;
}

/**
 * Verifies the account's address as its owner would: asks for the mail unless the signup just sent it, reads
 * it from `inbox` and posts its token. The dashboard's "verify your address" note is then gone from the start.
 */
async function verifyAddress(api: Api, cookie: string, email: string, inbox: DevAccountOptions['inbox']): Promise<void> {
  const me = await api.expect(200, 'GET', '/users/@me', { cookie });
  if (me.body.emailVerified === true || !inbox) return;
  // 429: one was sent moments ago (the signup's), and the inbox has it.
  await api.call('POST', '/auth/request-verification', { cookie });
  const token = verificationToken(await inbox(email));
  if (!token) throw new Error(`the verification mail to ${email} carried no link`);
  // In the account's own session: a link opened elsewhere proves the address only by setting a password.
  await api.expect(200, 'POST', '/auth/verify-email', { cookie }, { token });
}

/** The sample contacts, subscribed: made once (an address already a contact is left as it is). */
async function ensureSampleContacts(api: Api, key: { key: string }): Promise<void> {
  const emails = SAMPLE_CONTACTS.map((c) => c.email);
  const found = await api.expect(200, 'POST', '/contacts/lookup', key, { emails });
  const existing = new Set((found.body.found as Array<{ email: string }>).map((c) => c.email));
  for (const contact of SAMPLE_CONTACTS) {
    if (!existing.has(contact.email)) await api.expect(201, 'POST', '/contacts', key, { ...contact, subscribed: true });
  }
}

/**
 * Makes the development account (its address verified), project, verified sender domain, sample contacts and
 * sample automation through the API, the first time; a later start finds them (each checked with the API) and
 * changes nothing. The sender domain is verified by the normal DNS check against the development DNS server,
 * which publishes its records.
 */
export async function ensureDevAccount(apiUrl: string, options: Partial<DevAccountOptions> = {}): Promise<DevAccount> {
  const { file, domain, email: defaultEmail, inbox, webhookCaptureUrl } = { ...defaults, ...options };
  const api = new Api(apiUrl);
  const saved = read(file);
  const email = saved.email ?? defaultEmail;
  const password = saved.password ?? randomBytes(12).toString('base64url');
  const cookie = await session(api, email, password);
  await verifyAddress(api, cookie, email, inbox);

  let project = saved.project;
  if (!project || (await api.call('GET', `/domains/project/${project.id}`, { key: project.secret })).status !== 200) {
    const created = await api.expect(201, 'POST', '/users/@me/projects', { cookie }, { name: 'Development' });
    project = { id: String(created.body.id), public: String(created.body.public), secret: String(created.body.secret) };
  }
  const key = { key: project.secret };

  let domainId = saved.domain?.id;
  if (!domainId || (await api.call('GET', `/domains/${domainId}`, key)).status !== 200) {
    domainId = String((await api.expect(201, 'POST', '/domains', key, { domain })).body.id);
  }
  // Mail to any address at the development domain reaches the inbound SMTP server (docs/smtp.md).
  await api.expect(200, 'PATCH', `/domains/${domainId}`, key, { inbound: true });
  const verified = await api.expect(200, 'GET', `/domains/${domainId}/verify`, key);
  if (verified.body.verified !== true)
    throw new Error(`${domain} did not verify against the development DNS server: ${JSON.stringify(verified.body.records)}`);
  const sender = `hello@${domain}`;

  if (!saved.sampleContacts) await ensureSampleContacts(api, key);

  let templateId = saved.templateId;
  if (!templateId || (await api.call('GET', `/templates/${templateId}`, key)).status !== 200) {
    const template = {
      name: 'Welcome (development)',
      subject: 'Welcome!',
      body: '<p>Welcome aboard. <a href="https://example.com/start">Get started</a></p>',
      from: sender,
      type: 'TRANSACTIONAL',
    };
    templateId = String((await api.expect(201, 'POST', '/templates', key, template)).body.id);
  }
  let workflowId = saved.workflowId;
  if (!workflowId || (await api.call('GET', `/workflows/${workflowId}`, key)).status !== 200) {
    workflowId = String(
      (await api.expect(201, 'POST', '/workflows', key, { name: 'Welcome (development)', eventName: DEV_EVENT })).body.id,
    );
    await api.expect(201, 'POST', `/workflows/${workflowId}/steps`, key, { type: 'SEND_EMAIL', config: { templateId } });
    await api.expect(200, 'PATCH', `/workflows/${workflowId}`, key, { enabled: true });
  }

  let webhook = saved.webhook;
  if (webhookCaptureUrl && (!webhook || (await api.call('GET', `/webhook-endpoints/${webhook.id}`, key)).status !== 200)) {
    const endpoint = { url: webhookCaptureUrl, description: 'Webhook capture (development)', events: [], enabled: true };
    const created = await api.expect(201, 'POST', '/webhook-endpoints', key, endpoint);
    webhook = { id: String(created.body.id), secret: String(created.body.secret) };
  }

  const account: DevAccount = {
    email,
    password,
    project,
    domain: { id: domainId, name: domain },
    sender,
    templateId,
    workflowId,
    sampleContacts: true,
    ...(webhook ? { webhook } : {}),
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(account, null, 2), { mode: 0o600 });
  return account;
}

/** The lines `npm start` prints: the login, both keys, the sender and the first requests to copy. */
export function describeDevAccount(apiUrl: string, a: DevAccount, smtp?: { inbound: number; relay: number }): string {
  const json = (o: object) => JSON.stringify(o);
  const send = json({ from: a.sender, to: 'delivered@simulator.postwire.test', subject: 'Hello', body: '<p>My first email</p>' });
  const track = json({ email: 'delivered@simulator.postwire.test', event: DEV_EVENT });
  return `Development account (made once; the same on every start; ${shownDataDir('dev-account.json')})
  Login            ${a.email} / ${a.password}
  Project          ${a.project.id}
  Secret key       ${a.project.secret}
  Public key       ${a.project.public}
  Sender           ${a.sender}  (domain verified against the development DNS)
  Automation       "Welcome (development)" runs on the event ${DEV_EVENT} and sends its welcome email
  Contacts         the simulator addresses, subscribed: a campaign to "All subscribed contacts" reaches them${
    a.webhook ? '\n  Webhook          every event goes to the webhook capture, signed (its page checks the signatures)' : ''
  }

First email (to the simulator: it is delivered; try bounce@, complaint@, open@, click@ too):
  curl -s ${apiUrl}/v1/send -H 'Authorization: Bearer ${a.project.secret}' -H 'Content-Type: application/json' -d '${send}'
First event (starts the automation):
  curl -s ${apiUrl}/v1/track -H 'Authorization: Bearer ${a.project.public}' -H 'Content-Type: application/json' -d '${track}'
Then the activity, newest first, as a table (or as JSON):
  POSTWIRE_URL=${apiUrl} POSTWIRE_API_KEY=${a.project.secret} npx postwire activity list
  curl -s ${apiUrl}/activity -H 'Authorization: Bearer ${a.project.secret}' | python3 -m json.tool${smtp ? `\n${describeSmtp(apiUrl, a, smtp)}` : ''}`;
}

/** Copy-paste examples of the SMTP relay and of inbound mail (docs/smtp.md). */
function describeSmtp(apiUrl: string, a: DevAccount, smtp: { inbound: number; relay: number }): string {
  const relayed = `{from:'${a.sender}',to:'you@example.com',subject:'Relayed',text:'Sent through the SMTP relay'}`;
  return `Through the SMTP relay (any user name, the secret key as password; lands in the mail capture):
  node -e "require('nodemailer').createTransport({host:'127.0.0.1',port:${smtp.relay},auth:{user:'app',pass:'${a.project.secret}'}}).sendMail(${relayed}).then((i)=>console.log(i.response))"
Inbound mail (any address @${a.domain.name}; then GET /inbound or the dashboard's Inbound page):
  printf 'From: you@example.com\\r\\nTo: support@${a.domain.name}\\r\\nSubject: Hello\\r\\n\\r\\nA reply\\r\\n' | curl -s smtp://127.0.0.1:${smtp.inbound} --mail-from you@example.com --mail-rcpt support@${a.domain.name} -T -
  curl -s ${apiUrl}/inbound -H 'Authorization: Bearer ${a.project.secret}'`;
}
