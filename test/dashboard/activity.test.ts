import { startStack } from '../helpers/stack';
import { checkPage, freshSession, logInAs, rowsOf } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';
import { senderTenant, type SenderTenant } from '../helpers/tenants';
import { recipient, send, settled } from '../emails/helpers';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';

const suite = dashboardSuite(() => startStack({ pump: true, terminateWorkflows: true }));

/** Sends one email with these tags and waits until the pump has handed it to SMTP. */
async function sendTagged(sender: SenderTenant, to: string, subject: string, tags: Record<string, string>): Promise<string> {
  const res = await send(suite.stack, sender.project, { to, from: sender.from, subject, body: '<p>Hello</p>', tags }).expect(200);
  const id: string = res.body.data.emails[0].email;
  expect(await settled(suite.stack, id, 60_000)).toMatchObject({ status: 'SENT' });
  return id;
}

let sender: SenderTenant;
const ann = recipient('ann');
const bob = recipient('bob');
beforeAll(async () => {
  sender = await senderTenant(suite.stack);
  await sendTagged(sender, ann, 'Order A', { order: 'A-1', shop: 'north' });
  // The value holds a colon: the filter is `key:value`, split at the first one.
  await sendTagged(sender, bob, 'Order B', { order: 'B:2' });
}, 120_000);

describe('the dashboard: activity by tag, and deferrals', () => {
  it("filters the activity by a row's tag, keeps the filter in the address and clears it", async () => {
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, sender.user, sender.project.id, '/activity');
    await page.getByText('2 activities').waitFor({ timeout: 30_000 });

    await page.getByRole('link', { name: 'order: B:2' }).click();
    await page.getByText('Emails tagged order: B:2').waitFor();
    await page.getByText('1 activity;').waitFor();
    expect((await rowsOf(session, 'Email activity')).map((r) => [r[1], r[2]])).toEqual([['Sent', bob]]);
    expect(new URL(page.url()).hash).toBe(`#/activity?tag=${encodeURIComponent('order:B:2')}`);
    await checkPage(page, 'activity-tag');

    // The address alone brings the filter back, the type filter beside it.
    await page.goto(`${session.base}#/activity?type=SENT&tag=${encodeURIComponent('shop:north')}`);
    await page.getByText('Emails tagged shop: north').waitFor();
    // Both filters show one row: wait for this one's, not the one left on screen from before.
    await page.getByRole('cell', { name: bob }).waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: ann }).waitFor();
    expect((await rowsOf(session, 'Email activity')).map((r) => [r[1], r[2]])).toEqual([['Sent', ann]]);
    expect(await page.getByRole('checkbox', { name: 'Sent' }).isChecked()).toBe(true);

    await page.getByRole('button', { name: 'Show every tag' }).click();
    await page.getByText('2 activities').waitFor();
    expect(page.url()).not.toContain('tag=');
    expect(page.url()).toContain('type=SENT');
    await page.getByText('Emails tagged').waitFor({ state: 'detached' });

    // A tag typed in does the same; a malformed one is the API's refusal, shown on the page.
    const field = page.getByLabel('Tag', { exact: true });
    await field.fill('order:A-1');
    await page.getByRole('button', { name: 'Show tagged' }).click();
    await page.getByText('Emails tagged order: A-1').waitFor();
    await page.getByRole('cell', { name: bob }).waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: ann }).waitFor();
    await field.fill('order');
    await page.getByRole('button', { name: 'Show tagged' }).click();
    await page.getByRole('alert').getByText('A tag filter is key:value').waitFor();
    await checkPage(page, 'activity-tag-refused');
    await page.getByRole('button', { name: 'Show every tag' }).click();
    await page.getByText('2 activities').waitFor();

    // An email's own page links its tags to the same filter.
    await page.getByRole('link', { name: 'Order A' }).click();
    await page.getByRole('link', { name: 'shop: north' }).click();
    await page.getByText('Emails tagged shop: north').waitFor();
    await page.getByText('1 activity;').waitFor();
    await session.close();
  });

  it('shows a deferred email as deferred, with when it is tried again and why', async () => {
    const to = recipient('busy');
    suite.stack.smtp.refuseMessage(to, 451, '4.2.0 Mailbox temporarily unavailable');
    const res = await send(suite.stack, sender.project, { to, from: sender.from, subject: 'Later', body: '<p>Hi</p>' }).expect(200);
    const id: string = res.body.data.emails[0].email;
    const [deferral] = await waitFor(
      'the first deferral',
      async () => {
        const rows = await sql<{ data: { retryAt: string } }>(
          suite.stack,
          `select data from events where name = 'email.deferred' and data->>'emailId' = ? order by created_at limit 1`,
          [id],
        );
        return rows.length ? rows : undefined;
      },
      60_000,
    );
    const session = await freshSession(suite.browser);
    const { page } = session;
    // While it waits, the email's page says when it is tried again: the time of a deferral's retryAt (the
    // latest; another attempt may have been put off meanwhile).
    await logInAs(session, sender.user, sender.project.id, `/emails/${id}`);
    const status = page.locator('dl.facts dd').first();
    // Loaded while an attempt is under way, the email has no next attempt yet: the page is loaded again.
    await waitFor(
      'the email page to say when it is tried again',
      async () => {
        await status.waitFor({ timeout: 30_000 });
        if ((await status.innerText()).includes('Will retry at')) return true;
        await page.reload();
        return undefined;
      },
      60_000,
    );
    const said = /^pending Will retry at (.+): the receiving server put it off \(why\)\.$/.exec(
      (await status.innerText()).replace(/\s+/g, ' '),
    );
    const retries = await sql<{ retry_at: string }>(
      suite.stack,
      `select data->>'retryAt' as retry_at from events where name = 'email.deferred' and data->>'emailId' = ?`,
      [id],
    );
    const times = await page.evaluate(
      (isos) => isos.map((iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })),
      retries.map((r) => r.retry_at),
    );
    expect(times).toContain(said?.[1]);
    await checkPage(page, 'email-deferred');

    suite.stack.smtp.accept(to);
    expect(await settled(suite.stack, id, 60_000)).toMatchObject({ status: 'SENT' });
    await page.reload();
    await status.getByText('sent', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await status.innerText()).not.toContain('Will retry');

    await page.goto(`${session.base}#/activity?type=DEFERRED`);
    await page.getByRole('cell', { name: to }).first().waitFor({ timeout: 30_000 });
    const rows = await rowsOf(session, 'Email activity');
    const retry = await page.evaluate(
      (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
      deferral!.data.retryAt,
    );
    // The oldest row is the first attempt's deferral.
    expect(rows.at(-1)!.slice(1, 4)).toEqual(['Deferred', to, 'Later']);
    expect(rows.at(-1)![4]!.startsWith(`Will retry at ${retry}; attempt 1: `)).toBe(true);
    expect(rows.at(-1)![4]).toMatch(/451.*Mailbox temporarily unavailable/);
    await checkPage(page, 'activity-deferred');
    await session.close();
  });
});
