import type { Page } from 'playwright-core';
import { startStack } from '../helpers/stack';
import { startWorker } from '../helpers/temporal';
import { checkPage, freshSession, logInAs } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';
import { tenant, type Client, type Tenant } from '../helpers/tenants';

const suite = dashboardSuite(() => startStack({ worker: startWorker, terminateWorkflows: true }));

/** A fresh tenant and a browser page logged in as its owner, at `route`. */
async function openAs(route: string): Promise<{ t: Tenant; page: Page; close: () => Promise<void> }> {
  const t = await tenant(suite.stack);
  const session = await freshSession(suite.browser);
  await logInAs(session, t.user, t.project.id, route);
  return { t, page: session.page, close: () => session.close() };
}

async function addContact(c: Client, email: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await c.post('/contacts').send({ email, ...body });
  expect(res.status).toBe(201);
  return res.body.id;
}

const emailsShown = (page: Page) => page.locator('tbody tr td:nth-child(2)').allTextContents();
/** Waits until the table lists exactly these emails, in this order (the page shows the last list until the next arrives). */
async function rowsBecome(page: Page, emails: string[]): Promise<void> {
  // Runs in the page; this file is compiled without the DOM's types, hence the narrow view of `document`.
  type Cells = { document: { querySelectorAll(selector: string): Iterable<{ textContent: string | null }> } };
  await page.waitForFunction(
    (want) =>
      JSON.stringify(
        [...(globalThis as unknown as Cells).document.querySelectorAll('tbody tr td:nth-child(2)')].map((td) => td.textContent),
      ) === want,
    JSON.stringify(emails),
  );
}
const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

describe('the dashboard: contacts, import, bulk actions and custom fields', () => {
  it('pages through the contacts, searches and filters them on the server, and adds one', async () => {
    const { t, page, close } = await openAs('/contacts');
    const made: string[] = [];
    for (let i = 0; i < 45; i++) {
      const email = `p${String(i).padStart(2, '0')}@list.test`;
      made.push(email);
      await addContact(t.c, email, { subscribed: i >= 10 });
    }
    await addContact(t.c, 'findme@other.test');
    made.push('findme@other.test');
    await page.reload();
    await status(page, '46 contacts').waitFor();
    await checkPage(page, 'contacts-list');

    // Newest first, 20 a page by default: 20, 20, then 6, each page starting where the last one ended.
    const newestFirst = [...made].reverse();
    await rowsBecome(page, newestFirst.slice(0, 20));
    await page.getByRole('button', { name: 'Next' }).click();
    await rowsBecome(page, newestFirst.slice(20, 40));
    await page.getByText('Page 2', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await rowsBecome(page, newestFirst.slice(40));
    await page.getByText('Page 3', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await checkPage(page, 'contacts-page-3');
    await page.getByRole('button', { name: 'Previous' }).click();
    await rowsBecome(page, newestFirst.slice(20, 40));
    await page.getByLabel('Per page').selectOption('50');
    await rowsBecome(page, newestFirst);
    await page.getByText('Page 1', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await page.getByLabel('Per page').selectOption('20');

    await page.getByLabel('Search by email').fill('FINDME');
    await status(page, '1 contact matching “FINDME”').waitFor();
    await rowsBecome(page, ['findme@other.test']);
    expect(await page.getByText('Page 1', { exact: true }).count()).toBe(1);
    await checkPage(page, 'contacts-search');

    await page.getByLabel('Search by email').fill('');
    await page.getByLabel('Subscription').selectOption('false');
    await status(page, '10 contacts').waitFor();
    await rowsBecome(page, made.slice(0, 10).reverse());
    expect(await page.locator('tbody').getByText('unsubscribed').count()).toBe(10);
    // Back from a contact, the list is searched and filtered as it was.
    await page.getByLabel('Search by email').fill('p0');
    await status(page, '10 contacts matching “p0”').waitFor();
    await page.getByRole('link', { name: 'p03@list.test' }).click();
    await page.getByRole('heading', { level: 1, name: 'p03@list.test' }).waitFor();
    await page.goBack();
    await status(page, '10 contacts matching “p0”').waitFor();
    expect(await page.getByLabel('Subscription').inputValue()).toBe('false');
    await page.getByLabel('Subscription').selectOption('true');
    await status(page, '0 contacts matching “p0”').waitFor();
    await page.getByText('No contact matches.').waitFor();
    await checkPage(page, 'contacts-filtered-empty');

    await page.getByLabel('Email', { exact: true }).fill('not an email');
    await page.getByRole('button', { name: 'Add contact' }).click();
    await page.getByRole('alert').filter({ hasText: /email/i }).waitFor();
    await checkPage(page, 'contacts-add-refused');
    await page.getByLabel('Email', { exact: true }).fill('New.One@list.test');
    await page.getByRole('button', { name: 'Add contact' }).click();
    await page.getByRole('heading', { level: 1, name: 'new.one@list.test' }).waitFor();
    const found = await t.c
      .post('/contacts/lookup')
      .send({ emails: ['new.one@list.test'] })
      .expect(200);
    expect(found.body.found).toEqual([expect.objectContaining({ email: 'new.one@list.test', subscribed: true })]);
    expect(page.url()).toContain(`#/contacts/${found.body.found[0].id}`);

    // An email that already is a contact opens it as it is: adding never changes a subscription.
    await page.locator('.crumbs').getByRole('link', { name: 'Contacts' }).click();
    await page.getByLabel('Email', { exact: true }).fill('p00@list.test');
    await page.getByRole('button', { name: 'Add contact' }).click();
    await page.getByRole('heading', { level: 1, name: 'p00@list.test' }).waitFor();
    await page.getByRole('button', { name: 'Subscribe', exact: true }).waitFor();
    const p00 = (
      await t.c
        .post('/contacts/lookup')
        .send({ emails: ['p00@list.test'] })
        .expect(200)
    ).body.found[0];
    expect(p00.subscribed).toBe(false);
    await close();
  });

  it('shows a contact: its events newest first, subscription, data saved or refused with the API message, then deletes it', async () => {
    const { t, page, close } = await openAs('/contacts');
    const email = 'ada@detail.test';
    await t.c.track({ email, event: 'signed-up', data: { plan: 'pro' } }).expect(200);
    // One at a time, so that each event has its own instant and the order is theirs.
    for (let i = 1; i <= 21; i++) await t.c.track({ email, event: `viewed-page-${i}` }).expect(200);
    const id = (await t.c.post('/contacts/lookup').send({ emails: [email] })).body.found[0].id;

    await page.reload();
    await page.getByRole('link', { name: email }).click();
    await page.getByRole('heading', { level: 1, name: email }).waitFor();
    const events = page.locator('section[aria-label="Events"] li strong');
    await events.nth(19).waitFor();
    expect(await events.allTextContents()).toEqual(Array.from({ length: 20 }, (_, i) => `viewed-page-${21 - i}`));
    await checkPage(page, 'contact-detail');
    await page.locator('section[aria-label="Events"]').getByRole('button', { name: 'Next' }).click();
    await page.locator('section[aria-label="Events"]').getByText('Page 2', { exact: true }).waitFor();
    expect(await events.allTextContents()).toEqual(['viewed-page-1', 'signed-up']);

    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('button', { name: 'Subscribe', exact: true }).waitFor();
    expect((await t.c.get(`/contacts/${id}`).expect(200)).body.subscribed).toBe(false);
    // The flip is an event of the contact, and the timeline shows it first.
    await page.locator('section[aria-label="Events"] li strong').first().filter({ hasText: 'contact.unsubscribed' }).waitFor();

    await page.getByLabel('Value of plan').fill('enterprise');
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByLabel('Key').last().fill('seats');
    await page.getByLabel('Type').last().selectOption('number');
    await page.getByLabel('Value of seats').fill('12');
    await page.getByRole('button', { name: 'Save data' }).click();
    await status(page, 'Saved.').waitFor();
    expect((await t.c.get(`/contacts/${id}`).expect(200)).body.data).toEqual({ plan: 'enterprise', seats: 12 });

    await page.getByRole('button', { name: 'Remove plan' }).click();
    await page.getByRole('button', { name: 'Save data' }).click();
    await status(page, 'Saved.').waitFor();
    expect((await t.c.get(`/contacts/${id}`).expect(200)).body.data).toEqual({ seats: 12 });

    const long = 'k'.repeat(101);
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByLabel('Key').last().fill(long);
    await page.getByLabel(`Value of ${long}`).fill('x');
    await page.getByRole('button', { name: 'Save data' }).click();
    const refusal = page.locator('.field-invalid .field-error');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe('A data key is at most 100 characters');
    expect(await page.getByLabel('Key').last().getAttribute('aria-describedby')).toContain('error');
    expect((await t.c.get(`/contacts/${id}`).expect(200)).body.data).toEqual({ seats: 12 });
    await checkPage(page, 'contact-data-refused');

    await page.getByRole('button', { name: 'Delete contact' }).click();
    await checkPage(page, 'contact-delete-confirm');
    await page.getByRole('button', { name: 'Yes, delete contact' }).click();
    await page.getByRole('heading', { level: 1, name: 'Contacts' }).waitFor();
    await t.c.get(`/contacts/${id}`).expect(404);
    await page.goBack();
    await page.getByRole('alert').filter({ hasText: 'Contact not found' }).waitFor();
    await checkPage(page, 'contact-not-found');
    await close();
  });

  it('imports a CSV, follows the job to done, shows rejected rows with their reasons and lists the contacts', async () => {
    const { t, page, close } = await openAs('/contacts/import');
    await page.getByRole('heading', { level: 1, name: 'Import contacts' }).waitFor();
    await checkPage(page, 'contacts-import');

    await page.getByLabel('CSV file').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('name,plan\nAnn,pro\n') });
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/email/i);
    await checkPage(page, 'contacts-import-refused');

    const file = [
      'email,plan,subscribed',
      'ann@import.test,pro,',
      'bob@import.test,free,no',
      'not-an-email,free,',
      'cat@import.test,,yes',
    ].join('\n');
    await page.getByLabel('CSV file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(`${file}\n`) });
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByText('Import: done').waitFor({ timeout: 30_000 });
    expect(await page.locator('progress').getAttribute('value')).toBe('100');
    expect(await page.locator('.progress-label').textContent()).toBe('Import: done100%');
    const stat = (label: string) =>
      page
        .locator('.stats div', { has: page.locator('dt', { hasText: label }) })
        .locator('dd')
        .textContent();
    expect([await stat('Rows'), await stat('Created'), await stat('Rejected')]).toEqual(['4', '3', '1']);
    const rejected = page.getByRole('table', { name: 'Rejected rows' });
    expect(await rejected.locator('tbody tr td').allTextContents()).toEqual(['4', 'not-an-email', expect.stringMatching(/email/i)]);
    await checkPage(page, 'contacts-import-done');

    await page.getByRole('link', { name: 'See the contacts' }).click();
    await status(page, '3 contacts').waitFor();
    await page.locator('tbody tr').nth(2).waitFor();
    expect((await emailsShown(page)).sort()).toEqual(['ann@import.test', 'bob@import.test', 'cat@import.test']);
    const listed = (await t.c.get('/contacts?subscribed=false').expect(200)).body.data;
    expect(listed.map((c: { email: string }) => c.email)).toEqual(['bob@import.test']);
    await close();
  });

  it('runs bulk actions on the selected contacts and shows the job to its end', async () => {
    const { t, page, close } = await openAs('/contacts');
    for (const name of ['a', 'b', 'c']) await addContact(t.c, `${name}@bulk.test`);
    await page.reload();
    await status(page, '3 contacts').waitFor();

    await page.getByLabel('Select this page').check();
    await page.getByText('3 selected').waitFor();
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByText('Bulk unsubscribe: done').waitFor({ timeout: 30_000 });
    await page.getByText('3 unsubscribed, 0 unchanged', { exact: true }).waitFor();
    await page.getByText('0 selected').waitFor();
    await page.locator('tbody').getByText('unsubscribed').nth(2).waitFor();
    expect(await page.locator('tbody').getByText('subscribed', { exact: true }).count()).toBe(0);
    expect((await t.c.get('/contacts?subscribed=true').expect(200)).body.total).toBe(0);
    await checkPage(page, 'contacts-bulk-done');

    await page.getByLabel('Select b@bulk.test').check();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('Bulk delete: done').waitFor({ timeout: 30_000 });
    await page.getByText('1 deleted').waitFor();
    await status(page, '2 contacts').waitFor();
    await rowsBecome(page, ['c@bulk.test', 'a@bulk.test']);
    expect((await t.c.get('/contacts').expect(200)).body.total).toBe(2);
    await close();
  });

  it('lists, creates, inspects and deletes custom fields', async () => {
    const { t, page, close } = await openAs('/fields');
    await addContact(t.c, 'ann@fields.test', { data: { plan: 'pro' } });
    await addContact(t.c, 'bob@fields.test');
    await page.reload();
    const row = (field: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name: field, exact: true }) });
    // A custom field is named as contacts' data names it (plan), not by the API's path (data.plan).
    await row('plan').waitFor();
    expect(await row('plan').locator('td').allTextContents()).toEqual(['plan', 'Text', '50.0%', expect.any(String)]);
    expect(await page.getByRole('cell', { name: 'data.plan', exact: true }).count()).toBe(0);
    await checkPage(page, 'fields-list');

    await page.getByLabel('Field name').fill('renewsOn');
    await page.getByLabel('Type').selectOption('date');
    await page.getByRole('button', { name: 'Create field' }).click();
    await row('renewsOn').waitFor();
    expect(await row('renewsOn').locator('td').nth(1).textContent()).toBe('Date');
    const fields = (await t.c.get('/contacts/fields').expect(200)).body.fields;
    expect(fields).toContainEqual({ field: 'data.renewsOn', type: 'date', isCustom: true, coverage: 0 });

    await page.getByLabel('Field name').fill('plan');
    await page.getByRole('button', { name: 'Create field' }).click();
    await page.getByRole('alert').filter({ hasText: 'data.plan is already a field' }).waitFor();
    await page.getByLabel('Field name').fill('k'.repeat(101));
    await page.getByRole('button', { name: 'Create field' }).click();
    await page.locator('.field-error').filter({ hasText: 'Each key of the path is 1-100 characters' }).waitFor();
    await checkPage(page, 'fields-create-refused');

    await page.getByRole('button', { name: 'Values of plan' }).click();
    await page.getByRole('heading', { name: 'Field plan' }).waitFor();
    await page.getByText('"pro": 1').waitFor();
    await page.getByText('No segment, campaign or automation refers to it.').waitFor();
    await checkPage(page, 'fields-values');

    await page.getByRole('button', { name: 'Delete plan' }).click();
    await page.getByRole('button', { name: 'Yes, delete plan' }).click();
    await status(page, 'plan removed from 1 contact.').waitFor();
    await row('plan').waitFor({ state: 'detached' });
    const after = (await t.c.get('/contacts/fields').expect(200)).body.fields.map((f: { field: string }) => f.field);
    expect(after).not.toContain('data.plan');
    await close();
  });
});
