import { startStack } from '../helpers/stack';
import { checkPage, freshSession, logInAs } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';
import { tenant } from '../helpers/tenants';
import { waitFor } from '../helpers/wait';
import { listDomains, publish, uniqueDomain } from '../domains/helpers';

const suite = dashboardSuite(() => startStack({ terminateWorkflows: true }));

describe('the dashboard: sender domains', () => {
  it('adds a domain, shows its records to copy, sees it verified once DNS has them, and deletes it', async () => {
    const t = await tenant(suite.stack);
    const session = await freshSession(suite.browser);
    const { page } = session;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(suite.browser.base).origin });
    await logInAs(session, t.user, t.project.id, '/domains');
    await page.getByRole('heading', { level: 1, name: 'Domains' }).waitFor();
    await page.getByText('No sender domain yet.').waitFor();
    await checkPage(page, 'domains-empty');

    // The API's refusal, as it words it, beside the field.
    await page.getByLabel('Domain', { exact: true }).fill('https://not a domain');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/domain/i);
    await checkPage(page, 'domains-invalid');
    expect(await listDomains(suite.stack, t.project)).toEqual([]);

    const name = uniqueDomain('dash');
    await page.getByLabel('Domain', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    const [added] = await listDomains(suite.stack, t.project);
    expect(added).toMatchObject({ domain: name, verified: false });
    const dkim = added!.records.find((r) => r.purpose === 'DKIM')!;
    // Every record the API asks for is shown as it must be published, with a button that copies it.
    for (const record of added!.records) {
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: new RegExp(`^${record.purpose}`) }) });
      expect(await card.locator('code').allTextContents()).toEqual([record.name, record.value]);
    }
    await page.getByRole('button', { name: 'Copy DKIM record value' }).click();
    await waitFor('the DKIM value on the clipboard', async () =>
      (await page.evaluate('navigator.clipboard.readText()')) === dkim.value ? true : undefined,
    );
    const status = page.getByRole('status').filter({ hasText: 'Waiting for the DKIM record' });
    await status.waitFor();
    expect(await status.textContent()).toContain('Pending');
    await checkPage(page, 'domains-pending');

    // DNS now serves the record: the page, left open, turns verified by itself.
    publish(suite.stack, added!, 'DKIM');
    await page
      .getByRole('status')
      .filter({ hasText: `Mail can be sent from any address @${name}` })
      .waitFor({ timeout: 30_000 });
    expect(await page.getByRole('status').filter({ hasText: 'Verified' }).count()).toBe(1);
    expect(await page.getByRole('listitem').filter({ hasText: dkim.value }).textContent()).toContain('Found');
    expect((await listDomains(suite.stack, t.project))[0]).toMatchObject({ verified: true, verifiedAt: expect.any(String) });
    await checkPage(page, 'domains-verified');

    await page.getByRole('link', { name: 'All domains' }).click();
    const row = page.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    expect(await row.textContent()).toContain('Verified');
    await checkPage(page, 'domains-list');

    await row.getByRole('link', { name }).click();
    await page.getByRole('button', { name: 'Delete domain' }).click();
    await page.getByRole('button', { name: 'Yes, delete domain' }).click();
    await page.getByText('No sender domain yet.').waitFor();
    expect(await listDomains(suite.stack, t.project)).toEqual([]);
    await session.close();
  });

  it('shows the API’s answer for a domain of another project', async () => {
    const owner = await tenant(suite.stack);
    const other = await tenant(suite.stack);
    const theirs = await suite.stack
      .http()
      .post('/domains')
      .set('Authorization', `Bearer ${other.project.secret}`)
      .send({ domain: uniqueDomain('other') })
      .expect(201);
    const session = await freshSession(suite.browser);
    await logInAs(session, owner.user, owner.project.id, `/domains/${theirs.body.id}`);
    await session.page.getByRole('alert').waitFor();
    expect(await session.page.getByRole('alert').textContent()).toMatch(/not found/i);
    expect(await session.page.getByRole('button', { name: 'Delete domain' }).count()).toBe(0);
    await checkPage(session.page, 'domains-not-found');
    await session.close();
  });
});
