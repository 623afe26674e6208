import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { accessibilityProblems, openDashboard, photograph, waitForContent, type BrowserSession } from '../helpers/browser';
import { workerDatabaseUrl } from '../helpers/database';
import { uniqueEmail } from '../helpers/fixtures';
import { waitFor } from '../helpers/wait';
import { uniqueDomain } from '../domains/helpers';
import { startEngine, type Engine } from '../automation/engine';
import { startDevDns } from '../../scripts/lib/dev-dns';
import { ensureDevAccount, verificationToken, type DevAccount } from '../../scripts/lib/dev-account';
import { developmentEnv } from '../../scripts/lib/development';

/**
 * Every page of the dashboard, photographed at desktop and phone width (test-artifacts/screenshots/tour-*) and
 * checked with axe-core, over the development account `npm start` makes (scripts/lib/dev-account.ts) after the
 * README's first steps: emails to the simulator addresses, the sample automation run, a segment, a campaign
 * sent and one drafted, a webhook endpoint. The list of pages is the app's own (src/dashboard/pages.ts), so a
 * page added there is photographed without touching this file, or the test says which page it cannot reach.
 */
let engine: Engine;
let devDns: Awaited<ReturnType<typeof startDevDns>>;
let browser: BrowserSession;
let account: DevAccount;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'postwire-tour-'));
/** The ids the pages' patterns need, found through the API below. */
const ids: Record<string, string> = {};

/** The app's pages as src/dashboard/pages.ts lists them (read as text: the app's modules are not built for jest). */
const projectPages = [...fs.readFileSync(path.join(__dirname, '../../src/dashboard/pages.ts'), 'utf8').matchAll(/\{ path: '([^']+)'/g)].map(
  (m) => m[1]!,
);

const SIMULATOR = ['delivered', 'bounce', 'complaint', 'open', 'click'].map((who) => `${who}@simulator.postwire.test`);

async function api<T = Record<string, unknown>>(
  method: 'get' | 'post' | 'patch',
  route: string,
  body?: object,
  key = account.project.secret,
) {
  const req = engine.stack.http()[method](route).set('Authorization', `Bearer ${key}`);
  const res = body ? await req.send(body) : await req;
  if (res.status >= 300) throw new Error(`${method} ${route} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as T;
}

beforeAll(async () => {
  devDns = await startDevDns(0, await workerDatabaseUrl());
  // Loopback webhook endpoints are allowed, as for `npm start`'s webhook capture.
  const env = { ...developmentEnv({ sandbox: true }, devDns.address), WEBHOOK_ALLOW_PRIVATE: 'true' } as Record<string, string>;
  engine = await startEngine({ timeSkipping: false, env });
  const apiUrl = `http://127.0.0.1:${(engine.stack.server.address() as AddressInfo).port}`;
  account = await ensureDevAccount(apiUrl, {
    file: path.join(dir, 'dev-account.json'),
    email: uniqueEmail('tour'),
    domain: uniqueDomain('tour'),
    inbox: async (to) => (await engine.stack.smtp.waitFor((m) => m.to.includes(to) && verificationToken(m.raw) !== null)).raw,
  });
  // The README's first steps: an email to each simulator address, then the sample automation's event.
  for (const to of SIMULATOR) {
    const sent = await api<{ data: { emails: Array<{ email: string }> } }>('post', '/v1/send', {
      from: account.sender,
      to,
      subject: 'Hello',
      body: '<p>Hi</p>',
    });
    ids.email ??= sent.data.emails[0]!.email;
  }
  await api('post', '/v1/track', { email: SIMULATOR[0], event: 'signed-up' }, account.project.public);
  const contacts = await api<{ data: Array<{ id: string; email: string }> }>('get', '/contacts?limit=100');
  ids.contact = contacts.data.find((c) => c.email === SIMULATOR[0])!.id;
  for (const email of ['ada@example.test', 'grace@example.test'])
    await api('post', '/contacts', { email, subscribed: true, data: { plan: 'pro' } });
  ids.segment = (
    await api<{ id: string }>('post', '/segments', {
      name: 'Pro plan',
      condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] },
    })
  ).id;
  const campaign = (name: string) =>
    api<{ data: { id: string } }>('post', '/campaigns', {
      name,
      subject: 'News for {{ contact.email }}',
      body: '<p>News. <a href="https://example.com/more">More</a> <a href="{{ unsubscribeUrl }}">Unsubscribe</a></p>',
      from: account.sender,
      audienceType: 'SEGMENT',
      segmentId: ids.segment,
    });
  ids.sentCampaign = (await campaign('October news')).data.id;
  await api('post', `/campaigns/${ids.sentCampaign}/send`, {});
  ids.campaign = (await campaign('November news')).data.id;
  ids.template = account.templateId;
  ids.automation = account.workflowId;
  ids.domain = account.domain.id;
  ids.execution = await waitFor(
    'the sample automation to run',
    async () => (await api<{ data: Array<{ id: string }> }>('get', `/workflows/${ids.automation}/executions`)).data[0]?.id,
    30_000,
  );
  ids.webhook = (
    await api<{ id: string }>('post', '/webhook-endpoints', { url: 'http://127.0.0.1:9/postwire', events: [], enabled: false })
  ).id;
  ids.topic = (await api<{ id: string }>('post', '/topics', { name: 'Product news' })).id;
  ids.form = (await api<{ id: string }>('post', '/forms', { name: 'Newsletter signup', topicIds: [ids.topic] })).id;
  browser = await openDashboard(engine.stack.server.address() as AddressInfo);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await engine?.close();
  await devDns?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The pattern with the ids above (`:id` is the id of what the first segment names), or undefined when one is missing. */
function routeOf(pattern: string): string | undefined {
  const first = pattern.split('/')[1]!;
  const byFirst: Record<string, string> = {
    contacts: 'contact',
    segments: 'segment',
    templates: 'template',
    campaigns: 'campaign',
    automations: 'automation',
    domains: 'domain',
    webhooks: 'webhook',
    topics: 'topic',
    forms: 'form',
    emails: 'email',
  };
  let missing = false;
  const route = pattern.replace(/:(\w+)/g, (_, name: string) => {
    const id = name === 'id' ? ids[byFirst[first]!] : ids[name === 'executionId' ? 'execution' : name];
    if (!id) missing = true;
    return id ?? '';
  });
  return missing ? undefined : route;
}

/** `tour-campaigns-id-edit` for `/campaigns/:id/edit`; the overview is `tour-overview`. */
const nameOf = (pattern: string) => (pattern === '/' ? 'tour-overview' : `tour${pattern.replace(/:/g, '').replace(/\//g, '-')}`);

it('shows every page of the development account at desktop and phone width, each passing axe-core', async () => {
  const { page } = browser;
  const problems: string[] = [];
  await page.goto(`${browser.base}#/login`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await photograph(page, 'tour-login');
  problems.push(...(await accessibilityProblems(page)).map((p) => `login: ${p}`));
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();

  const pages = [...projectPages, `/campaigns/${ids.sentCampaign}`, '/no-such-page'];
  const unreachable: string[] = [];
  for (const pattern of pages) {
    const route = routeOf(pattern);
    if (!route) {
      unreachable.push(pattern);
      continue;
    }
    await page.goto(`${browser.base}#${route}`);
    await waitForContent(page);
    const name = pattern.startsWith('/campaigns/') && route.includes(ids.sentCampaign!) ? 'tour-campaigns-sent' : nameOf(pattern);
    await photograph(page, name);
    problems.push(...(await accessibilityProblems(page)).map((p) => `${pattern}: ${p}`));
  }
  expect(unreachable).toEqual([]);
  expect(problems).toEqual([]);
}, 300_000);
