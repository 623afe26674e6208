import type { Page } from 'playwright-core';
import { startStack } from '../helpers/stack';
import { checkPage, freshSession, logInAs } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';
import { senderTenant } from '../helpers/tenants';
import { addStep, createWorkflow } from '../automation/helpers';

const suite = dashboardSuite(() => startStack({ terminateWorkflows: true }));

const preview = (page: Page) => page.frameLocator('iframe[title^="Email as"]');
const variables = (page: Page) => page.getByRole('list', { name: 'Variables used' }).locator('li');

async function chooseContact(page: Page, search: string, email: string) {
  await page.getByLabel('Find a contact').fill(search);
  await page.getByLabel('Preview for', { exact: true }).locator('option', { hasText: email }).waitFor({ state: 'attached' });
  await page.getByLabel('Preview for', { exact: true }).selectOption({ label: email });
}

describe('the dashboard: templates', () => {
  it('writes a template with a live preview for a chosen contact, lists its variables and shows its usage', async () => {
    const t = await senderTenant(suite.stack);
    await t.c
      .post('/contacts')
      .send({ email: 'ann@example.test', data: { name: 'Ann', plan: 'pro' } })
      .expect(201);
    await t.c
      .post('/contacts')
      .send({ email: 'bob@example.test', data: { name: 'Bob', plan: 'free' } })
      .expect(201);
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, t.user, t.project.id, '/templates');
    await page.getByText('No templates yet.').waitFor();
    await checkPage(page, 'templates-empty');

    await page.getByRole('link', { name: 'New template' }).click();
    await page.getByRole('heading', { level: 1, name: 'New template' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Plan news');
    // From is the part before @ on a verified domain of the project, chosen, never typed.
    const [local, domain] = t.from.split('@') as [string, string];
    await page.getByLabel('From address').fill(local);
    await page
      .getByLabel('Sender domain')
      .locator('option', { hasText: `@${domain}` })
      .waitFor({ state: 'attached' });
    expect(await page.getByLabel('Sender domain').inputValue()).toBe(domain);
    await page.getByLabel('Subject').fill('Hi {{ name ?? "friend" }}');
    await page.getByLabel('HTML body').fill('<p id="plan">Your plan: {{ plan }}</p><script>document.title = "ran"</script>');
    await page
      .getByTestId('preview-subject')
      .filter({ hasText: /^Hi friend$/ })
      .waitFor();
    expect(await variables(page).allTextContents()).toEqual(['name', 'plan']);
    await checkPage(page, 'templates-new');

    await chooseContact(page, 'ann', 'ann@example.test');
    await page
      .getByTestId('preview-subject')
      .filter({ hasText: /^Hi Ann$/ })
      .waitFor();
    expect(await preview(page).locator('#plan').textContent()).toBe('Your plan: pro');
    const frame = page.locator('iframe[title^="Email as"]');
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await frame.getAttribute('title')).toBe('Email as ann@example.test gets it');
    // The email's HTML never enters the app's document.
    expect(await page.locator('main #plan').count()).toBe(0);

    await chooseContact(page, 'bob@', 'bob@example.test');
    await page
      .getByTestId('preview-subject')
      .filter({ hasText: /^Hi Bob$/ })
      .waitFor();
    await preview(page).locator('#plan', { hasText: 'Your plan: free' }).waitFor();

    await page.getByLabel('HTML body').fill('<p id="plan">{{ plan }} at {{ company.name }}</p>{% if vip %}VIP{% endif %}');
    await variables(page).filter({ hasText: 'vip' }).waitFor();
    expect(await variables(page).allTextContents()).toEqual(['name', 'plan', 'company.name', 'vip']);
    await preview(page)
      .locator('#plan', { hasText: /^free at $/ })
      .waitFor();

    await page.getByLabel('HTML body').fill('<p>{% if plan %}</p>');
    await page.getByRole('alert').filter({ hasText: 'does not parse' }).waitFor();
    await checkPage(page, 'templates-preview-error');
    await page.getByLabel('HTML body').fill('<p id="plan">{{ plan }}</p>');
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('heading', { level: 1, name: 'Plan news' }).waitFor();
    const [saved] = (await t.c.get('/templates').expect(200)).body.data;
    expect(saved).toMatchObject({
      name: 'Plan news',
      from: t.from,
      subject: 'Hi {{ name ?? "friend" }}',
      body: '<p id="plan">{{ plan }}</p>',
    });
    expect(page.url()).toContain(`#/templates/${saved.id}`);
    await page.getByText('No campaign or automation uses this template.').waitFor();

    await t.c.post('/campaigns').send({ name: 'Spring launch', templateId: saved.id, audienceType: 'ALL' }).expect(201);
    const workflow = await createWorkflow(t, { name: 'Onboarding' });
    await addStep(t, workflow.id, 'SEND_EMAIL', { templateId: saved.id });
    await page.reload();
    const usage = page.getByRole('region', { name: 'Used by' });
    await usage.getByRole('link', { name: 'Spring launch' }).waitFor();
    await usage.getByRole('link', { name: 'Onboarding' }).waitFor();
    await page.getByLabel('Subject').fill('Plans for {{ name }}');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await t.c.get(`/templates/${saved.id}`).expect(200)).body.subject).toBe('Plans for {{ name }}');
    await page.getByRole('button', { name: 'Delete template' }).click();
    await page.getByRole('button', { name: 'Yes, delete template' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /workflow/i })
      .waitFor();
    await t.c.get(`/templates/${saved.id}`).expect(200);
    await checkPage(page, 'templates-editor');

    await page.getByRole('button', { name: 'Duplicate' }).click();
    await page.getByRole('heading', { level: 1, name: 'Plan news (Copy)' }).waitFor();
    expect(await page.getByLabel('Subject').inputValue()).toBe('Plans for {{ name }}');
    await page.getByText('No campaign or automation uses this template.').waitFor();
    expect((await t.c.get('/templates').expect(200)).body.total).toBe(2);
    await session.close();
  });

  it('pages and searches the list on the server, and shows why a save is refused', async () => {
    const t = await senderTenant(suite.stack);
    for (let i = 1; i <= 23; i++) {
      await t.c
        .post('/templates')
        .send({ name: `Digest ${String(i).padStart(2, '0')}`, subject: `Week ${i}`, body: '<p>x</p>', from: t.from })
        .expect(201);
    }
    await t.c
      .post('/templates')
      .send({ name: 'Receipt', subject: 'Your order', body: '<p>x</p>', from: t.from, type: 'TRANSACTIONAL' })
      .expect(201);
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, t.user, t.project.id, '/templates');
    await page.getByText('24 templates').waitFor();
    await page.getByText('Page 1 of 2').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(20);
    await checkPage(page, 'templates-list');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 2').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(4);

    await page.getByLabel('Search').fill('order');
    await page.getByText('1 template', { exact: true }).waitFor();
    expect(await page.locator('tbody tr').first().textContent()).toContain('Receipt');
    await page.getByLabel('Search').fill('');
    await page.getByText('24 templates').waitFor();
    await page.getByLabel('Type').selectOption('TRANSACTIONAL');
    await page.getByText('1 template', { exact: true }).waitFor();
    expect(await page.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining('Receipt')]);
    await page.getByLabel('Search').fill('nothing like this');
    await page.getByText('No template matches.').waitFor();
    await checkPage(page, 'templates-list-empty-search');

    // A required field left empty is refused beside it before any request; a MARKETING body without an
    // unsubscribe link gets a hint that TRANSACTIONAL does not need.
    await page.getByRole('link', { name: 'New template' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Off sender');
    await page.getByLabel('HTML body').fill('<p>No way out</p>');
    const hint = page.getByRole('note').filter({ hasText: 'should let people unsubscribe' });
    await hint.waitFor();
    await page.getByLabel('Type').selectOption('TRANSACTIONAL');
    await hint.waitFor({ state: 'detached' });
    await page.getByLabel('Type').selectOption('MARKETING');
    await hint.waitFor();
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.locator('.field-error', { hasText: 'From address is required' }).waitFor();
    expect(await page.getByLabel('From address').getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'templates-refused');
    expect((await t.c.get('/templates?search=Off%20sender').expect(200)).body.total).toBe(0);

    await page.goto(`${suite.browser.base}#/templates`);
    const row = page.locator('tbody tr', { hasText: 'Receipt' });
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('23 templates').waitFor();
    expect((await t.c.get('/templates?search=Receipt').expect(200)).body.total).toBe(0);
    await session.close();
  });
});
