import { startEngine } from '../automation/engine';
import { checkPage, signUp, type BrowserSession } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';
import { uniqueEmail } from '../helpers/fixtures';
import { publish } from '../domains/helpers';
import type { DomainBody } from '../domains/helpers';

/**
 * A newcomer's first ten minutes (README) from the dashboard alone: sign up, verify a sender domain, write a
 * template, build and enable an automation, add simulator contacts and track the event that starts it, then
 * watch one email delivered and one bounce on purpose, with the bounced contact unsubscribed. The stack runs the
 * worker, the events dispatcher, the delivery pump and the sandbox's simulator, as `npm start` does; the test
 * publishes the domain's DKIM record where `npm start`'s development DNS would.
 */
const suite = dashboardSuite(() => startEngine({ timeSkipping: false, env: { SANDBOX_ENABLED: 'true' } }));

const SLOW = { timeout: 60_000 };

it('gets a newcomer from sign-up to a delivered email, a bounce on purpose and an automation that reacted, in the dashboard only', async () => {
  const { page } = suite.browser;
  await signUp(suite.browser, uniqueEmail('newcomer'), 'correct horse battery', 'First steps');

  const domain = `first-${Date.now()}.example.test`;
  await page.getByRole('link', { name: 'Domains', exact: true }).click();
  await page.getByLabel('Domain', { exact: true }).fill(domain);
  await page.getByRole('button', { name: 'Add domain' }).click();
  await page.getByRole('heading', { level: 1, name: domain }).waitFor();
  const id = /#\/domains\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  const body = (
    await suite.stack
      .http()
      .get(`/domains/${id}`)
      .set('Cookie', await cookieOf(suite.browser))
      .set('X-Project-Id', await projectOf(suite.browser))
  ).body as DomainBody;
  publish(suite.stack, body, 'DKIM');
  await page.getByRole('status').filter({ hasText: 'Verified' }).waitFor(SLOW);

  await page.getByRole('link', { name: 'Templates', exact: true }).click();
  await page.getByRole('link', { name: 'New template' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Welcome');
  await page.getByLabel('From address').fill('hello');
  // The sender's domain is chosen among the verified ones, the first offered at once.
  await page
    .getByLabel('Sender domain')
    .locator('option', { hasText: `@${domain}` })
    .waitFor({ state: 'attached' });
  await page.getByLabel('Subject').fill('Welcome aboard');
  await page.getByLabel('HTML body').fill('<p>Glad you are here.</p>');
  await page.getByRole('button', { name: 'Create template' }).click();
  await page.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();

  await page.getByRole('link', { name: 'Automations', exact: true }).click();
  await page.getByLabel('Name', { exact: true }).fill('Welcome series');
  await page.getByLabel('Trigger event').fill('signed-up');
  await page.getByRole('button', { name: 'Create automation' }).click();
  await page.getByRole('heading', { level: 1, name: 'Welcome series' }).waitFor();
  await page.getByRole('button', { name: 'Add the first step', exact: true }).click();
  await page.getByLabel('Step type').selectOption('SEND_EMAIL');
  await page.getByLabel('Template', { exact: true }).selectOption({ label: 'Welcome' });
  await page.getByRole('button', { name: 'Add step', exact: true }).click();
  await page.locator('.flow-node', { hasText: 'Template: Welcome' }).waitFor();
  await page.getByRole('button', { name: 'Enable' }).click();
  await page.getByRole('button', { name: 'Disable' }).waitFor();
  const automation = page.url();

  for (const who of ['delivered', 'bounce']) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts', exact: true }).click();
    await page.getByLabel('Email', { exact: true }).fill(`${who}@simulator.postwire.test`);
    await page.getByRole('button', { name: 'Add contact' }).click();
    await page.getByRole('heading', { level: 1, name: `${who}@simulator.postwire.test` }).waitFor();
    await page.getByLabel('Event name').fill('signed-up');
    await page.getByRole('button', { name: 'Track event' }).click();
    await page.getByRole('status').filter({ hasText: 'Tracked signed-up.' }).waitFor();
  }

  // The bounced contact's page: the bounce and the unsubscription it caused, once the outcome is back.
  await waitForEvent(page, 'email.bounce');
  await page.getByText('suppressed: bounced', { exact: true }).waitFor();
  expect(await page.getByText('email.delivery', { exact: true }).count()).toBe(0);
  await checkPage(page, 'first-ten-minutes-bounced-contact');

  await page.goto(`${automation.replace(/#.*/, '')}#/automations/${/#\/automations\/([0-9a-f-]{36})/.exec(automation)![1]}/executions`);
  const row = (email: string) => page.getByRole('row').filter({ hasText: email });
  await row('delivered@simulator.postwire.test').getByText('COMPLETED').waitFor(SLOW);
  await row('bounce@simulator.postwire.test').getByText('COMPLETED').waitFor(SLOW);
  await checkPage(page, 'first-ten-minutes-executions');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts', exact: true }).click();
  await page.getByRole('link', { name: 'delivered@simulator.postwire.test' }).click();
  await waitForEvent(page, 'email.delivery');
  await page.getByText('subscribed', { exact: true }).waitFor();
  expect(await page.getByText('email.bounce', { exact: true }).count()).toBe(0);
}, 240_000);

/** Reloads the contact's page until its timeline shows `text`: the page polls nothing here, so a person would reload. */
async function waitForEvent(page: BrowserSession['page'], text: string): Promise<void> {
  const deadline = Date.now() + SLOW.timeout;
  for (;;) {
    await page.getByRole('region', { name: 'Events' }).locator('.contact-timeline, .empty').first().waitFor();
    if ((await page.getByText(text, { exact: true }).count()) > 0) return;
    if (Date.now() > deadline)
      throw new Error(`"${text}" did not show within ${SLOW.timeout / 1000} s: ${await page.locator('main').innerText()}`);
    await new Promise((r) => setTimeout(r, 1000));
    await page.reload();
  }
}

async function cookieOf(session: BrowserSession): Promise<string> {
  const cookies = await session.page.context().cookies();
  const found = cookies.find((c) => c.name === 'postwire_session')!;
  return `${found.name}=${found.value}`;
}

async function projectOf(session: BrowserSession): Promise<string> {
  return session.page.evaluate<string>("localStorage.getItem('postwire.project') ?? ''");
}
