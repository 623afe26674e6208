import { startStack } from '../helpers/stack';
import { checkPage, freshSession, logInAs, rowsOf } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';
import { senderTenant, tenant, type SenderTenant } from '../helpers/tenants';
import { recipient, settled } from '../emails/helpers';

const suite = dashboardSuite(() => startStack({ pump: true, terminateWorkflows: true }));

const HOUR = 3600_000;

async function scheduled(t: SenderTenant, subject: string, inMs: number, tags: Record<string, string> = {}) {
  const res = await t.c
    .post('/v1/send')
    .send({ to: recipient('later'), from: t.from, subject, body: '<p>Later</p>', sendAt: new Date(Date.now() + inMs).toISOString(), tags })
    .expect(200);
  return res.body.data.emails[0] as { email: string; contact: { email: string } };
}

const statusOf = async (t: SenderTenant, id: string) => (await t.c.get(`/v1/emails/${id}`).expect(200)).body.data.status as string;

describe('the dashboard: scheduled emails, an email, suppressions', () => {
  it("lists scheduled emails in Activity's Coming up, with their tags, and cancels one", async () => {
    const t = await senderTenant(suite.stack);
    const first = await scheduled(t, 'Trial ends soon', 2 * HOUR, { flow: 'trial' });
    const second = await scheduled(t, 'Renewal reminder', 3 * HOUR);
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, t.user, t.project.id, '/activity');
    await page.getByRole('region', { name: 'Coming up' }).waitFor();
    const rows = await rowsOf(session, 'Scheduled emails');
    expect(rows.map((r) => [r[0], r[1], r[3]])).toEqual([
      ['Trial ends soon', first.contact.email, 'flow: trial'],
      ['Renewal reminder', second.contact.email, ''],
    ]);
    await checkPage(page, 'activity-scheduled-emails');

    const row = page.locator('tr', { has: page.getByText('Renewal reminder') });
    await row.getByRole('button', { name: 'Cancel' }).click();
    await row.getByRole('button', { name: 'Yes, cancel' }).click();
    await page.getByText('Renewal reminder').waitFor({ state: 'detached' });
    expect(await statusOf(t, second.email)).toBe('CANCELLED');
    expect(await statusOf(t, first.email)).toBe('SCHEDULED');
    await session.close();
  });

  it('shows an email with its tags, reschedules it and cancels it', async () => {
    const t = await senderTenant(suite.stack);
    const email = await scheduled(t, 'Your invoice', 5 * HOUR, { order: 'A-1042' });
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, t.user, t.project.id, `/emails/${email.email}`);
    await page.getByRole('heading', { level: 1, name: 'Your invoice' }).waitFor();
    await page.getByText('scheduled', { exact: true }).waitFor();
    await page.getByRole('list', { name: 'Tags' }).getByText('A-1042').waitFor();
    await checkPage(page, 'email-scheduled');

    // Two days from now in the browser's wall-clock time, as a datetime-local input takes it.
    const local = await page.evaluate(() => {
      const d = new Date(Date.now() + 48 * 3600_000);
      d.setSeconds(0, 0);
      return { input: new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16), iso: d.toISOString() };
    });
    await page.getByLabel('Send at').fill(local.input);
    await page.getByRole('button', { name: 'Reschedule' }).click();
    await page
      .getByText(
        await page.evaluate((iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }), local.iso),
      )
      .first()
      .waitFor();
    expect((await t.c.get(`/v1/emails/${email.email}`).expect(200)).body.data.scheduledAt).toBe(local.iso);

    await page.getByRole('button', { name: 'Cancel email' }).click();
    await page.getByRole('button', { name: 'Yes, cancel email' }).click();
    await page.getByText('cancelled', { exact: true }).waitFor();
    expect(await statusOf(t, email.email)).toBe('CANCELLED');
    await checkPage(page, 'email-cancelled');
    await session.close();
  });

  it('lists, searches, adds and removes suppressed addresses; a removed one is mailed again', async () => {
    const t = await senderTenant(suite.stack);
    await t.c
      .post('/suppressions')
      .send({ emails: ['old@example.test'] })
      .expect(200);
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, t.user, t.project.id, '/suppressions');
    await page.getByRole('heading', { level: 1, name: 'Suppressions' }).waitFor();
    await page.getByText('1 suppressed address').waitFor();

    const to = recipient('suppressed');
    await page.getByRole('textbox', { name: 'Addresses' }).fill(`${to}, second@example.test old@example.test`);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('2 added, 1 already on the list.').waitFor();
    await page.getByText('3 suppressed addresses').waitFor();
    expect((await rowsOf(session, 'Suppressed addresses')).map((r) => [r[0], r[1]])).toEqual(
      expect.arrayContaining([
        [to, 'Added by hand'],
        ['second@example.test', 'Added by hand'],
        ['old@example.test', 'Added by hand'],
      ]),
    );
    await checkPage(page, 'suppressions');

    await page.getByLabel('Search by address').fill('second');
    await page.getByText('1 suppressed address matching “second”').waitFor();
    await page.getByLabel('Search by address').fill(to.slice(0, 12));
    await page.getByRole('cell', { name: to }).waitFor();
    const row = page.locator('tr', { has: page.getByRole('cell', { name: to }) });
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: 'Yes, remove' }).click();
    await page.getByRole('cell', { name: to }).waitFor({ state: 'detached' });
    await t.c.get(`/suppressions/${to}`).expect(404);
    const sent = await t.c.post('/v1/send').send({ to, from: t.from, subject: 'Back', body: '<p>Back</p>' }).expect(200);
    expect((await settled(suite.stack, sent.body.data.emails[0].email as string)).status).toBe('SENT');

    // Another project's member sees none of it.
    const other = await tenant(suite.stack);
    const theirs = await freshSession(suite.browser);
    await logInAs(theirs, other.user, other.project.id, '/suppressions');
    await theirs.page.getByText('No suppressed address').waitFor();
    await theirs.close();
    await session.close();
  });
});
