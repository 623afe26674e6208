import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Page } from 'playwright-core';
import { checkPage, freshSession, logInAs, type BrowserSession } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';
import { parseMail } from '../helpers/mail';
import { startStack, type TestStack } from '../helpers/stack';
import { gatewayFor, startWorker } from '../helpers/temporal';
import { timeSkippingEnv } from '../helpers/temporal-env';
import { waitFor } from '../helpers/wait';
import type { SenderTenant } from '../helpers/tenants';
import { createCampaign, sentCampaign } from '../campaigns/helpers';
import { snoozeWorkflowId } from '../../workflows/consent/ids';
import { confirmationTemplate, contactOf, createForm, createTopic, linkIn } from '../consent/helpers';
import { quietSenderTenant } from '../helpers/time-skipping';

const DAY = 24 * 3_600_000;

// Days of timers are skipped, and a campaign goes out twice: limits, not targets, on a loaded machine.
jest.setTimeout(240_000);

let env: TestWorkflowEnvironment;
const suite = dashboardSuite(async () => {
  env = await timeSkippingEnv();
  const stack = await startStack({
    temporal: gatewayFor(env, `consent-ui-${randomBytes(4).toString('hex')}`),
    worker: (deps) => startWorker(deps, env.nativeConnection),
    pump: true,
    env: { SIGNUP_MIN_FILL_SECONDS: '2' },
  });
  return { stack, close: async () => (await stack.close(), await env.teardown()) };
});

/** Where the pages the service links to live as far as the browser knows (PUBLIC_URL of the stack). */
const PUBLIC = 'http://localhost:3000';
// A loopback name: Chrome lets a page load the snippet's script from the (loopback) service only from there.
const SHOP = 'http://shop.localhost';

/**
 * A browser profile for a reader: the service's public pages answer at PUBLIC_URL (each request passed on to the
 * stack), and a shop's own page at SHOP holds the form's snippet, as it would be pasted into a real site.
 */
async function reader(stack: TestStack, snippet: string): Promise<BrowserSession> {
  const session = await freshSession(suite.browser);
  const stackUrl = `http://localhost:${(stack.server.address() as AddressInfo).port}`;
  const context = session.page.context();
  // Fetched and answered rather than continued to another URL, which the browser would follow as a redirect.
  await context.route(`${PUBLIC}/**`, async (route) =>
    route.fulfill({ response: await route.fetch({ url: route.request().url().replace(PUBLIC, stackUrl), maxRedirects: 0 }) }),
  );
  await context.route(`${SHOP}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><main><h1>Our shop</h1>${snippet}</main></body></html>`,
    }),
  );
  return session;
}

const at = (path: string) => `${PUBLIC}${path}`;

async function mailsTo(stack: TestStack, to: string) {
  return Promise.all(stack.smtp.to(to).map(parseMail));
}

async function fillAndWait(page: Page, fields: Record<string, string>) {
  for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value);
}

describe('the public pages in a browser', () => {
  it('signs up through the embedded form, confirms by the mailed link, joins a topic, gets only its campaign, leaves it from the email and snoozes', async () => {
    const { stack } = suite;
    const t: SenderTenant = await quietSenderTenant(stack);
    const topic = await createTopic(t, { name: 'Weekly digest', description: 'The best of the week' });
    const template = await confirmationTemplate(t);
    const form = await createForm(t, {
      title: 'Join our list',
      fields: [
        { key: 'email', label: 'Email', type: 'email', required: true },
        { key: 'data.firstName', label: 'First name', type: 'text' },
      ],
      doubleOptIn: true,
      confirmationTemplateId: template,
    });
    const session = await reader(stack, form.embedHtml);
    const { page } = session;
    try {
      await page.goto(`${SHOP}/`);
      // The snippet's script put the start token in.
      await waitFor('the start token', async () => ((await page.locator('input[name="_pw_started"]').inputValue()) ? true : undefined));
      await fillAndWait(page, { Email: 'ann@example.test', 'First name': 'Ann' });
      await page.waitForTimeout(2_100);
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await page.getByRole('heading', { level: 1, name: 'Thank you' }).waitFor();
      expect(page.url()).toBe(at(`/f/${form.id}`));
      await page.getByText('a confirmation link is on its way to ann@example.test').waitFor();
      await checkPage(page, 'signup-thanks');

      const confirmation = await waitFor('the confirmation email', async () => (await mailsTo(stack, 'ann@example.test'))[0]);
      await page.goto(at(linkIn(confirmation, 'confirm')));
      await page.getByRole('heading', { level: 1, name: 'Confirm your subscription' }).waitFor();
      await checkPage(page, 'signup-confirm');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('heading', { level: 1, name: 'Subscription confirmed' }).waitFor();
      expect(await contactOf(stack, t.project.id, 'ann@example.test')).toMatchObject({ subscribed: true, data: { firstName: 'Ann' } });

      // The preference center: join the topic.
      await page.getByRole('link', { name: 'Choose what you receive' }).click();
      await page.getByRole('heading', { level: 1, name: 'Email preferences' }).waitFor();
      await checkPage(page, 'preferences');
      await page.getByRole('checkbox', { name: /Weekly digest/ }).check();
      await page.getByRole('button', { name: 'Save topics' }).click();
      await page.getByRole('status').filter({ hasText: 'Your preferences were saved.' }).waitFor();
      expect(await page.getByRole('checkbox', { name: /Weekly digest/ }).isChecked()).toBe(true);

      // Only the topic's members get its campaign.
      await t.c.post('/contacts').send({ email: 'bob@example.test' }).expect(201);
      const digest = await createCampaign(t, {
        topicId: topic.id,
        subject: 'Digest #1',
        body: '<p>This week</p><a href="{{ unsubscribeUrl }}">Unsubscribe</a> <a href="{{ manageUrl }}">Preferences</a>',
      });
      await t.c.post(`/campaigns/${digest.id}/send`).send({}).expect(200);
      expect((await sentCampaign(t, digest.id, 90_000)).totalRecipients).toBe(1);
      const news = await waitFor('the digest', async () =>
        (await mailsTo(stack, 'ann@example.test')).find((m) => m.subject === 'Digest #1'),
      );
      expect(stack.smtp.to('bob@example.test')).toEqual([]);

      // Its unsubscribe link leaves the topic only.
      await page.goto(at(linkIn(news, 'unsubscribe')));
      await page.getByText('Stop email about Weekly digest').waitFor();
      await checkPage(page, 'unsubscribe-topic');
      await page.getByRole('button', { name: 'Unsubscribe', exact: true }).click();
      await page.getByText('will no longer receive email about Weekly digest').waitFor();
      const consent = (await t.c.get(`/contacts/${(await contactOf(stack, t.project.id, 'ann@example.test'))!.id}/consent`)).body;
      expect(consent).toMatchObject({ subscribed: true, topics: [{ member: false }] });

      // Snooze for two weeks; the timer brings the contact back.
      await page.goto(at(linkIn(news, 'manage')));
      await page.getByRole('radio', { name: '2 weeks' }).check();
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.getByText('Marketing email is paused until').waitFor();
      await checkPage(page, 'preferences-snoozed');
      expect((await createCampaign(t)).totalRecipients).toBe(1);
      await env.sleep(14 * DAY + 60_000);
      await env.client.workflow.getHandle(snoozeWorkflowId(consent.contactId)).result();
      expect((await createCampaign(t)).totalRecipients).toBe(2);
      await page.goto(at(linkIn(news, 'manage')));
      await page.getByRole('heading', { name: 'Take a break' }).waitFor();
    } finally {
      await session.close();
    }
  });

  it('refuses a form filled too fast and one whose honeypot is filled, saying so', async () => {
    const { stack } = suite;
    const t = await quietSenderTenant(stack);
    const form = await createForm(t, { title: 'Join' });
    const session = await reader(stack, form.embedHtml);
    const { page } = session;
    try {
      await page.goto(at(`/f/${form.id}`));
      await page.getByLabel('Email').fill('bot@example.test');
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await page.getByRole('alert').filter({ hasText: 'That was quick' }).waitFor();
      expect(await page.getByLabel('Email').inputValue()).toBe('bot@example.test');
      await checkPage(page, 'signup-too-fast');

      await page.locator('input[name="website"]').fill('http://spam.example', { force: true });
      await page.waitForTimeout(2_100);
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await page.getByRole('heading', { level: 1, name: 'Signup refused' }).waitFor();
      await checkPage(page, 'signup-refused');
      expect(await contactOf(stack, t.project.id, 'bot@example.test')).toBeUndefined();
    } finally {
      await session.close();
    }
  });
});

describe("the dashboard: topics, signup forms and a contact's consent", () => {
  it("adds and edits a topic, sets up a form with a preview and its snippet, and changes a contact's topics and snooze", async () => {
    const { stack } = suite;
    const t = await quietSenderTenant(stack);
    await confirmationTemplate(t);
    const session = await freshSession(suite.browser);
    const { page } = session;
    try {
      await logInAs(session, t.user, t.project.id, '/');
      await page.getByRole('link', { name: 'Topics', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Topics' }).waitFor();
      await page.getByText('No topic yet.').waitFor();
      await page.getByLabel('Name').fill('Product news');
      await page.getByLabel('Description (optional)').fill('What we ship');
      await page.getByLabel('Contacts who never chose are').selectOption('IN');
      await page.getByRole('button', { name: 'Add topic' }).click();
      await page.getByRole('row').filter({ hasText: 'in by default' }).getByRole('link', { name: 'Product news' }).click();
      await page.getByRole('heading', { level: 1, name: 'Product news' }).waitFor();
      await page.getByLabel('Name').fill('Product updates');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await checkPage(page, 'topic');
      const [topic] = (await t.c.get('/topics').expect(200)).body.data;
      expect(topic).toMatchObject({ name: 'Product updates', description: 'What we ship', defaultMembership: 'IN' });

      await page.getByRole('link', { name: 'Signup forms', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Signup forms' }).waitFor();
      await page.getByLabel('Name').fill('Newsletter');
      await page.getByRole('button', { name: 'Create form' }).click();
      await page.getByRole('heading', { level: 1, name: 'Newsletter' }).waitFor();
      await page.getByRole('button', { name: 'Add a field' }).click();
      const field = page.getByRole('group', { name: 'Field 2' });
      await field.getByLabel('Label').fill('First name');
      await field.getByLabel('Custom field').fill('firstName');
      await page.getByRole('checkbox', { name: 'Product updates' }).check();
      await page.getByRole('checkbox', { name: /Signups confirm by a link/ }).check();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('alert').filter({ hasText: 'Double opt-in needs the template' }).waitFor();
      await page.getByLabel('Confirmation email').selectOption({ label: 'Confirm' });
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      const [form] = (await t.c.get('/forms').expect(200)).body.data;
      expect(form).toMatchObject({
        name: 'Newsletter',
        fields: [{ key: 'email' }, { key: 'data.firstName', label: 'First name', type: 'text', required: false }],
        topicIds: [topic.id],
        doubleOptIn: true,
      });
      await page.frameLocator('iframe[title="Preview of Newsletter"]').getByLabel('First name').waitFor();
      expect(await page.getByLabel('Snippet', { exact: true }).inputValue()).toContain(`action="${PUBLIC}/f/${form.id}"`);
      await checkPage(page, 'form');

      await page.goto(`${session.base}#/topics/${topic.id}`);
      await page.getByRole('button', { name: 'Delete topic' }).click();
      await page.getByRole('button', { name: 'Yes, delete topic' }).click();
      await page.getByRole('alert').filter({ hasText: 'The topic is in use' }).waitFor();

      const contactId = (await t.c.post('/contacts').send({ email: 'ann@example.test' }).expect(201)).body.id;
      await page.goto(`${session.base}#/contacts/${contactId}`);
      await page.getByRole('heading', { name: 'Consent' }).waitFor();
      await page.getByText('not asked').waitFor();
      const box = page.getByRole('checkbox', { name: /Product updates/ });
      expect(await box.isChecked()).toBe(true);
      await box.uncheck();
      await page.getByRole('button', { name: 'Save topics' }).click();
      await waitFor('the topic left', async () => {
        const consent = (await t.c.get(`/contacts/${contactId}/consent`)).body;
        return consent.topics[0].member === false ? true : undefined;
      });
      await page.getByLabel('Pause marketing for').selectOption('ONE_MONTH');
      await page.getByRole('button', { name: 'Pause', exact: true }).click();
      await page.getByText(/paused until/).waitFor();
      await checkPage(page, 'contact-consent');
      await page.getByRole('button', { name: 'Resume now' }).click();
      await page.getByText('not paused').waitFor();
      expect((await t.c.get(`/contacts/${contactId}/consent`)).body.snoozedUntil).toBeNull();
    } finally {
      await session.close();
    }
  });
});
