import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { checkPage, freshSession, logInAs } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';
import { startStack, type TestStack } from '../helpers/stack';
import { tenant, type Tenant } from '../helpers/tenants';
import { ADMIN_TOKEN, projectRow } from '../reputation/helpers';

/** The operators' page (docs/operators.md "In the dashboard") against a stack with ADMIN_TOKEN, and one without. */
const suite = dashboardSuite(() => startStack({ env: { ADMIN_TOKEN } }));

/** Waits generously: the page's requests queue behind the machine's other work. */
const LONG = { timeout: 30_000 };

async function named(name: string): Promise<Tenant> {
  const t = await tenant(suite.stack);
  await suite.stack.http().patch(`/users/@me/projects/${t.project.id}`).set('Cookie', t.user.cookie).send({ name }).expect(200);
  return t;
}

/** The error code of a send by the project's key (the sender domain is not the project's: refused either way, but why). */
const sendRefusal = async (t: Tenant): Promise<string | undefined> =>
  (await t.c.post('/v1/send').send({ to: 'someone@example.test', from: 'hello@example.test', subject: 'Hi', body: '<p>Hi</p>' })).body.error
    ?.code;

describe('the dashboard: operators', () => {
  let bare: TestStack | undefined;
  afterAll(async () => {
    await bare?.close();
  });

  it('refuses a wrong token, lists and searches projects, suspends with a reason, reinstates, and shows the audit', async () => {
    const tag = randomUUID().slice(0, 8);
    const shop = await named(`Shop ${tag}`);
    const blog = await named(`Blog ${tag}`);
    const session = await freshSession(suite.browser);
    const { page } = session;

    // From the login page, as an operator without a user account would come.
    await page.goto(`${session.base}#/login`);
    await page.getByRole('link', { name: 'Operators' }).click();
    await page.getByRole('heading', { level: 1, name: 'Operators' }).waitFor(LONG);
    const token = page.getByLabel("Operators' token (ADMIN_TOKEN)");
    await token.waitFor(LONG);

    await token.fill(`${ADMIN_TOKEN}x`);
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('alert').filter({ hasText: "The token was refused: it is not this deployment's ADMIN_TOKEN" }).waitFor(LONG);
    expect(await page.evaluate(() => sessionStorage.getItem('postwire.adminToken'))).toBeNull();
    await checkPage(page, 'operators-refused');

    await token.fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('table', { name: 'Projects of this deployment, newest first' }).waitFor(LONG);
    expect(await page.evaluate(() => sessionStorage.getItem('postwire.adminToken'))).toBe(ADMIN_TOKEN);
    expect(await page.evaluate(() => localStorage.getItem('postwire.adminToken'))).toBeNull();

    // Search: a part of the name, newest first; then a part of an id alone.
    await page.getByLabel('Search by name or id').fill(tag);
    await page
      .getByRole('status')
      .filter({ hasText: `2 projects matching “${tag}”` })
      .waitFor(LONG);
    const rows = page.getByRole('table', { name: /Projects of this deployment/ }).getByRole('row');
    expect(await rows.nth(1).textContent()).toContain(`Blog ${tag}`);
    expect(await rows.nth(2).textContent()).toContain(`Shop ${tag}`);
    expect(await rows.nth(2).textContent()).toContain(shop.user.email);
    await page.getByLabel('Search by name or id').fill(shop.project.id.slice(9, 23));
    await page.getByRole('status').filter({ hasText: '1 project matching' }).waitFor(LONG);
    await page
      .getByRole('row')
      .filter({ hasText: `Shop ${tag}` })
      .waitFor(LONG);
    await page.getByLabel('Search by name or id').fill(tag);
    await page
      .getByRole('status')
      .filter({ hasText: `2 projects matching “${tag}”` })
      .waitFor(LONG);
    await page.getByLabel('Status').selectOption('true');
    await page.getByText('No project matches.').waitFor(LONG);
    await page.getByLabel('Status').selectOption('');
    await checkPage(page, 'operators-projects');

    // Suspend: the reason is required (the API's refusal shows beside it), then given.
    await page.getByRole('button', { name: `Suspend Shop ${tag}` }).click();
    const reason = page.getByLabel('Reason', { exact: true });
    await reason.waitFor(LONG);
    await page.getByRole('button', { name: 'Suspend project' }).click();
    await page.getByText('Give the reason, which the owners are told').first().waitFor(LONG);
    expect((await projectRow(suite.stack, shop.project.id)).disabled).toBe(false);
    await reason.fill('Spam trap hits reported by a mailbox provider');
    await page.getByRole('button', { name: 'Suspend project' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Shop ${tag} is suspended` })
      .waitFor(LONG);
    await page
      .getByRole('row')
      .filter({ hasText: `Shop ${tag}` })
      .filter({ hasText: 'Spam trap hits reported by a mailbox provider' })
      .waitFor(LONG);
    await page
      .getByRole('row')
      .filter({ hasText: 'Spam trap hits reported by a mailbox provider' })
      .filter({ hasText: 'Operator' })
      .waitFor(LONG);
    expect(await projectRow(suite.stack, shop.project.id)).toEqual({
      disabled: true,
      disabled_reason: 'Spam trap hits reported by a mailbox provider',
    });
    await page.getByLabel('Status').selectOption('true');
    await page
      .getByRole('status')
      .filter({ hasText: `1 project matching “${tag}”` })
      .waitFor(LONG);
    await checkPage(page, 'operators-suspended');

    // The owner: the API refuses the project's sends, and every dashboard page says why.
    expect(await sendRefusal(shop)).toBe('PROJECT_DISABLED');
    expect(await sendRefusal(blog)).not.toBe('PROJECT_DISABLED');
    const owner = await freshSession(suite.browser);
    await logInAs(owner, shop.user, shop.project.id, '/');
    const banner = owner.page.locator('.suspended-banner');
    await banner.waitFor(LONG);
    expect(await banner.textContent()).toContain('Spam trap hits reported by a mailbox provider');
    await owner.close();

    // Reinstate with a reason: the project is active again, and the audit lists both, newest first.
    await page.getByRole('button', { name: `Reinstate Shop ${tag}` }).click();
    await page.getByLabel('Reason (optional)').fill('List cleaned, double opt-in added');
    await page.getByRole('button', { name: 'Reinstate project' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Shop ${tag} is reinstated` })
      .waitFor(LONG);
    await page.getByText('No project matches.').waitFor(LONG);
    expect(await projectRow(suite.stack, shop.project.id)).toEqual({ disabled: false, disabled_reason: null });
    const audit = page.getByRole('table', { name: 'Suspensions and reinstatements, newest first' }).getByRole('row');
    await audit.filter({ hasText: 'List cleaned, double opt-in added' }).waitFor(LONG);
    const mine = await audit.filter({ hasText: shop.project.id }).allTextContents();
    expect(mine).toEqual([
      expect.stringMatching(/Reinstated.*List cleaned, double opt-in added.*Operator/),
      expect.stringMatching(/Suspended.*Spam trap hits reported by a mailbox provider.*Operator/),
    ]);
    expect(await sendRefusal(shop)).not.toBe('PROJECT_DISABLED');
    await checkPage(page, 'operators-audit');

    // The token stays for the tab, across a reload, until forgotten.
    await page.reload();
    await page.getByRole('table', { name: /Projects of this deployment/ }).waitFor(LONG);
    await page.getByRole('button', { name: 'Forget the token' }).click();
    await page.getByLabel("Operators' token (ADMIN_TOKEN)").waitFor(LONG);
    expect(await page.evaluate(() => sessionStorage.getItem('postwire.adminToken'))).toBeNull();
    await session.close();
  }, 240_000);

  it('says how to turn operators access on when the deployment has no ADMIN_TOKEN', async () => {
    bare = await startStack();
    const session = await freshSession(suite.browser);
    const { page } = session;
    await page.goto(`http://localhost:${(bare.server.address() as AddressInfo).port}/app/#/operators`);
    const off = page.getByRole('note').filter({ hasText: "Operators' access is off on this deployment." });
    await off.waitFor(LONG);
    expect(await off.textContent()).toContain('set ADMIN_TOKEN');
    expect(await page.getByLabel("Operators' token (ADMIN_TOKEN)").count()).toBe(0);
    await checkPage(page, 'operators-off');
    await session.close();
  }, 180_000);
});
