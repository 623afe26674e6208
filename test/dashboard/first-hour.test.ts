import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { checkPage, openDashboard, type BrowserSession } from '../helpers/browser';
import { workerDatabaseUrl } from '../helpers/database';
import { uniqueEmail } from '../helpers/fixtures';
import { uniqueDomain } from '../domains/helpers';
import { startEngine, type Engine } from '../automation/engine';
import { startDevDns } from '../../scripts/lib/dev-dns';
import { ensureDevAccount, SAMPLE_CONTACTS, verificationToken, type DevAccount } from '../../scripts/lib/dev-account';
import { developmentEnv } from '../../scripts/lib/development';

/**
 * The README's first hour in the dashboard, on the development account `npm start` makes: log in with the
 * printed login, get pointed at what to do by the Overview, compose a campaign to "All subscribed contacts"
 * (the simulator addresses), send it and watch its figures, recipients and clicked links come in; then the
 * fixes of issue 26 that hang on it: a campaign that reaches nobody is not offered for sending, a bulk subscribe
 * skips the addresses that bounced or complained (and the list says they are suppressed), and the contact's
 * timeline uses the card's width.
 */
let engine: Engine;
let devDns: Awaited<ReturnType<typeof startDevDns>>;
let browser: BrowserSession;
let account: DevAccount;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'postwire-first-hour-'));
const SLOW = { timeout: 90_000 };

beforeAll(async () => {
  devDns = await startDevDns(0, await workerDatabaseUrl());
  engine = await startEngine({ timeSkipping: false, env: developmentEnv({ sandbox: true }, devDns.address) as Record<string, string> });
  const apiUrl = `http://127.0.0.1:${(engine.stack.server.address() as AddressInfo).port}`;
  account = await ensureDevAccount(apiUrl, {
    file: path.join(dir, 'dev-account.json'),
    email: uniqueEmail('newcomer'),
    domain: uniqueDomain('newcomer'),
    inbox: async (to) => (await engine.stack.smtp.waitFor((m) => m.to.includes(to) && verificationToken(m.raw) !== null)).raw,
  });
  browser = await openDashboard(engine.stack.server.address() as AddressInfo);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await engine?.close();
  await devDns?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const figure = (label: string) =>
  browser.page
    .getByRole('region', { name: 'Figures' })
    .locator('div', { has: browser.page.getByRole('term').filter({ hasText: new RegExp(`^${label}$`) }) })
    .getByRole('definition');

/** The figure's count (the rate after it aside), read again with Refresh figures until `ok` holds. */
async function figureUntil(label: string, ok: (n: number) => boolean): Promise<number> {
  const { page } = browser;
  const deadline = Date.now() + SLOW.timeout;
  for (;;) {
    const n = Number(((await figure(label).textContent()) ?? '').split(' ')[0]!.replace(/\D/g, ''));
    if (ok(n)) return n;
    if (Date.now() > deadline) throw new Error(`${label} stayed at ${n}`);
    await page.waitForTimeout(1000);
    await page.getByRole('button', { name: 'Refresh figures' }).click();
    await page.getByRole('button', { name: 'Refresh figures' }).waitFor();
  }
}

describe('the first hour, from the README, in the dashboard', () => {
  it('logs in with the printed login, is pointed at a first campaign, sends it to the simulator contacts and sees its figures', async () => {
    const { page } = browser;
    await page.goto(`${browser.base}#/login`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Log in' }).click();

    // The Overview: no false "verify your address" note, and a guide to the first steps with the simulator table.
    const start = page.getByRole('region', { name: 'Start here' });
    // Logging in from #/login leads to the overview (it was a "Page not found").
    await start.waitFor();
    expect(await page.getByText('Verify your email address').count()).toBe(0);
    for (const c of SAMPLE_CONTACTS) await start.getByRole('cell', { name: c.email }).first().waitFor();
    await checkPage(page, 'first-hour-overview');

    await start.getByRole('link', { name: 'New campaign' }).click();
    await page.getByRole('heading', { level: 1, name: 'New campaign' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Hello, simulator');
    await page.getByLabel('Sender address').fill('hello');
    await page.getByLabel('Subject').fill('Hello {{ contact.data.firstName }}');
    await page.getByLabel('Body (HTML with Liquid)').fill('<p>Hi! <a href="https://example.com/welcome">Read more</a></p>');
    // Every sample contact is subscribed: the audience reaches all of them, and the preview renders the email.
    await page
      .getByTestId('live-count')
      .filter({ hasText: String(SAMPLE_CONTACTS.length) })
      .waitFor();
    await page.getByTestId('preview-subject').waitFor();
    await checkPage(page, 'first-hour-compose');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hello, simulator' }).waitFor();
    expect(await page.getByTestId('audience-count').textContent()).toBe(`${SAMPLE_CONTACTS.length} contacts`);

    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByRole('button', { name: 'Yes, send now' }).click();
    await page.locator('.page-header .badge', { hasText: /^Sent$/ }).waitFor(SLOW);

    // The figures come in as the simulator answers: deliveries, the open and the click, the bounce.
    expect(await figureUntil('Delivered', (n) => n >= 3)).toBeGreaterThanOrEqual(3);
    await figureUntil('Clicked', (n) => n >= 1);
    await figureUntil('Bounced', (n) => n >= 1);
    const recipients = page.getByRole('region', { name: 'Recipients' });
    await recipients
      .getByRole('row')
      .filter({ hasText: 'bounce@simulator.postwire.test' })
      .locator('.badge', { hasText: 'Bounced' })
      .waitFor(SLOW);
    await page.getByRole('region', { name: 'Clicked links' }).getByRole('link', { name: 'https://example.com/welcome' }).waitFor(SLOW);
    await checkPage(page, 'first-hour-campaign-sent');
  }, 300_000);

  it('does not offer to send a campaign that reaches nobody, and says why and how to fix it', async () => {
    const { page } = browser;
    await page.goto(`${browser.base}#/campaigns/new`);
    await page.getByLabel('Name', { exact: true }).fill('To nobody');
    await page.getByLabel('Sender address').fill('hello');
    await page.getByLabel('Subject').fill('Nobody');
    await page.getByLabel('Body (HTML with Liquid)').fill('<p>Nobody</p>');
    await page.getByRole('combobox', { name: 'Audience' }).selectOption('FILTERED');
    // A condition no contact meets: the count says 0 and explains what makes a contact subscribed.
    const condition = page.getByRole('group', { name: 'Condition' });
    await condition.getByLabel('Field').first().selectOption('email');
    await condition.getByLabel('Operator').first().selectOption('contains');
    await condition.getByLabel('Value').first().fill('nobody-at-all');
    await page.getByTestId('live-count').filter({ hasText: /^0$/ }).waitFor();
    await page.getByRole('link', { name: 'subscribe contacts' }).waitFor();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { level: 1, name: 'To nobody' }).waitFor();
    await page.getByText('This campaign reaches nobody now').waitFor();
    expect(await page.getByRole('button', { name: 'Send now' }).count()).toBe(0);
    await checkPage(page, 'first-hour-campaign-to-nobody');
  }, 120_000);

  it('skips the bounced and complaining addresses in a bulk subscribe, and shows them suppressed', async () => {
    const { page } = browser;
    await engine.stack
      .http()
      .post('/contacts')
      .set('Authorization', `Bearer ${account.project.secret}`)
      .send({ email: 'quiet@simulator.postwire.test', subscribed: false })
      .expect(201);
    await page.goto(`${browser.base}#/contacts`);
    const row = (email: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: email, exact: true }) });
    // The campaign above bounced at bounce@ and drew a complaint from complaint@.
    await row('bounce@simulator.postwire.test').getByText('suppressed: bounced').waitFor(SLOW);
    await row('complaint@simulator.postwire.test').getByText('suppressed: complained').waitFor(SLOW);
    for (const email of ['bounce', 'complaint', 'quiet'])
      await page.getByLabel(`Select ${email}@simulator.postwire.test`, { exact: true }).check();
    await page.getByText('2 selected contacts are suppressed: Subscribe skips them.').waitFor();
    await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Subscribe', exact: true }).click();
    await page.getByText('1 subscribed, 0 unchanged, 2 skipped: suppressed (bounced or complained)').waitFor(SLOW);
    await row('quiet@simulator.postwire.test').getByText('subscribed', { exact: true }).waitFor();
    await row('bounce@simulator.postwire.test').getByText('suppressed: bounced').waitFor();
    await checkPage(page, 'first-hour-bulk-subscribe');

    await page.getByRole('link', { name: 'bounce@simulator.postwire.test', exact: true }).click();
    await page.getByText('This address bounced permanently').waitFor();
  }, 120_000);

  it("draws the contact's timeline across the card, one event a line", async () => {
    const { page } = browser;
    await page.goto(`${browser.base}#/contacts`);
    await page.getByRole('link', { name: 'delivered@simulator.postwire.test' }).click();
    const events = page.getByRole('region', { name: 'Events' });
    await events.locator('.contact-event').first().waitFor();
    const card = (await events.boundingBox())!;
    const widths = await events
      .locator('.contact-event')
      .evaluateAll((items: Array<{ getBoundingClientRect(): { width: number } }>) => items.map((li) => li.getBoundingClientRect().width));
    expect(widths.length).toBeGreaterThanOrEqual(2);
    // `.timeline li` of the automation pages made each event a 7rem column; now each spans the card.
    for (const width of widths) expect(width).toBeGreaterThan(card.width * 0.8);
    await checkPage(page, 'first-hour-contact-timeline');
  }, 60_000);

  it("greets a sample contact in the new template's preview, and lays out the unsubscribe hint as one paragraph", async () => {
    const { page } = browser;
    await page.goto(`${browser.base}#/templates/new`);
    // The starter greets a sample contact by the first name it has (it read a `name` no contact has).
    await page.getByLabel('Preview for').selectOption({ label: 'click@simulator.postwire.test' });
    await page
      .getByTestId('preview-subject')
      .filter({ hasText: /^Hello Click$/ })
      .waitFor();
    await page.getByLabel('HTML body').fill('<p>News without a way out</p>');
    const hint = page.getByRole('note').filter({ hasText: 'A marketing template should let people unsubscribe' });
    await hint.waitFor();
    // A hand-written `.notice` made its text, code and text three flex columns: the code stood 4 short lines tall.
    const code = (await hint.locator('code').boundingBox())!;
    // Now it flows in the sentence: wider than tall, even when the line breaks inside it.
    expect(code.width).toBeGreaterThan(code.height * 2);
    await checkPage(page, 'first-hour-template-unsubscribe-hint');
  }, 60_000);

  it('names on the graph a template written in another tab for an email step', async () => {
    const { page } = browser;
    const call = (method: 'post' | 'get', route: string, body?: object) =>
      engine.stack.http()[method](route).set('Authorization', `Bearer ${account.project.secret}`).send(body);
    const automation = (await call('post', '/workflows', { name: 'Trial tips', eventName: 'trial-started' })).body as { id: string };
    await page.goto(`${browser.base}#/automations/${automation.id}`);
    await page.getByRole('button', { name: 'Add the first step' }).click();
    // The step panel's link opens a new template in another tab; it is saved there while this page stays open.
    await page.getByRole('link', { name: 'Write a new template' }).waitFor();
    await call('post', '/templates', {
      name: 'Tips for a trial',
      subject: 'Tips',
      body: '<p>Tips</p>',
      from: account.sender,
      type: 'TRANSACTIONAL',
    }).expect(201);
    await page.evaluate("window.dispatchEvent(new Event('focus'))");
    await page.getByLabel('Template', { exact: true }).selectOption({ label: 'Tips for a trial' });
    await page.getByRole('button', { name: 'Add step' }).click();
    // The graph named the step by the template's id, read before the template was made.
    await page
      .getByRole('group', { name: 'Steps of the automation' })
      .locator('.flow-detail', { hasText: 'Template: Tips for a trial' })
      .waitFor();
    await checkPage(page, 'first-hour-automation-new-template');
  }, 60_000);

  it('leaves the simulated mail out of the security, analytics and billing figures, and says so on each page', async () => {
    const { page } = browser;
    // The campaign above bounced and drew a complaint at the simulator: none of it turns the project critical.
    await page.goto(`${browser.base}#/security`);
    await page.locator('.simulated-note').filter({ hasText: 'left out of these figures' }).waitFor();
    expect(await page.locator('.rate-fill.rate-critical').count()).toBe(0);
    for (const [route, what, elsewhere] of [
      ['/analytics', 'these figures', 'billing'],
      ['/billing', 'this month’s use', 'analytics'],
    ] as const) {
      await page.goto(`${browser.base}#${route}`);
      const note = page.getByRole('note').filter({ hasText: `Mail to the simulator addresses is left out of ${what}` });
      await note.waitFor();
      // Each page names the other two, not itself ("left out of this month's use, as it is … of billing").
      expect(await note.textContent()).toContain(`as it is of the security figures and of ${elsewhere}`);
      await checkPage(page, `first-hour-simulated-${route.slice(1)}`);
    }
  }, 60_000);
});
