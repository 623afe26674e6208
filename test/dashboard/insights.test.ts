import { startStack } from '../helpers/stack';
import { checkPage, freshSession, logInAs, rowsOf } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';
import { joinedUser } from '../helpers/members';
import { seedSentEmails, sql } from '../helpers/seed';
import { suspendProject } from '../../src/modules/reputation/suspension';
import { campaignTenant, newTenant, senderTenant, type SenderTenant } from '../helpers/tenants';
import { createCampaign } from '../campaigns/helpers';
import { recipient } from '../emails/helpers';
import { openMail, sendAndDeliver, type Delivered } from '../activity/helpers';

const suite = dashboardSuite(() => startStack({ pump: true, terminateWorkflows: true }));

/** A project that sent two emails (the first to be opened later in the test) and tracked a custom event. */
interface Story {
  sender: SenderTenant;
  ann: Delivered;
  bob: Delivered;
}

let s: Story;
beforeAll(async () => {
  const sender = await senderTenant(suite.stack);
  const ann = await sendAndDeliver(suite.stack, sender, recipient('ann'), 'Welcome');
  const bob = await sendAndDeliver(suite.stack, sender, recipient('bob'), 'Your invoice');
  await sender.c.track({ email: ann.to, event: 'signed-up' }).expect(200);
  await sender.c.track({ email: bob.to, event: 'signed-up' }).expect(200);
  s = { sender, ann, bob };
}, 120_000);

interface CheckboxElement {
  click(): void;
  checked: boolean;
}

describe('the dashboard: activity, analytics, billing and security', () => {
  it('lists the activity, follows a new open without a reload, and filters by type and contact', async () => {
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, s.sender.user, s.sender.project.id, '/activity');
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    await page.getByRole('cell', { name: s.bob.to }).waitFor();
    expect((await rowsOf(session, 'Email activity')).map((r) => [r[1], r[2], r[3]])).toEqual([
      ['Sent', s.bob.to, 'Your invoice'],
      ['Sent', s.ann.to, 'Welcome'],
    ]);
    await page.getByText('2 activities').waitFor();
    await checkPage(page, 'activity-list');

    // Ann opens the email: the feed shows it by itself.
    await openMail(suite.stack, s.ann);
    await page.getByRole('cell', { name: 'Opened' }).waitFor({ timeout: 15_000 });
    expect((await rowsOf(session, 'Email activity')).map((r) => [r[1], r[2]])).toEqual([
      ['Opened', s.ann.to],
      ['Sent', s.bob.to],
      ['Sent', s.ann.to],
    ]);

    await page.getByText('3 activities').waitFor();
    await page.getByRole('checkbox', { name: 'Sent' }).check();
    await page.getByText('2 activities').waitFor();
    expect((await rowsOf(session, 'Email activity')).map((r) => [r[1], r[2]])).toEqual([
      ['Sent', s.bob.to],
      ['Sent', s.ann.to],
    ]);
    expect(page.url()).toContain('type=SENT');
    await checkPage(page, 'activity-filtered');

    // The box stays unticked from the click on: the page's next render already has the new address.
    const tickedAfterClick = await page.getByRole('checkbox', { name: 'Sent' }).evaluate(async (box: CheckboxElement) => {
      box.click();
      for (let i = 0; i < 5; i++) await Promise.resolve();
      return box.checked;
    });
    expect(tickedAfterClick).toBe(false);
    await page.getByText('3 activities').waitFor();
    await page.getByRole('link', { name: s.ann.to }).first().click();
    await page.getByText(`Activity of ${s.ann.to}`).waitFor();
    await page.getByRole('cell', { name: s.bob.to }).waitFor({ state: 'detached' });
    await page.getByText('2 activities').waitFor();
    expect((await rowsOf(session, 'Email activity')).map((r) => [r[1], r[2]])).toEqual([
      ['Opened', s.ann.to],
      ['Sent', s.ann.to],
    ]);
    await checkPage(page, 'activity-contact');
    await session.close();
  });

  it('shows the campaigns scheduled next above an empty feed', async () => {
    const t = await campaignTenant(suite.stack);
    const campaign = await createCampaign(t, { name: 'Spring sale' });
    const at = new Date(Date.now() + 2 * 3600_000).toISOString();
    await t.c.post(`/campaigns/${campaign.id}/send`).send({ scheduledFor: at }).expect(200);
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, t.user, t.project.id, '/activity');
    await page.getByRole('region', { name: 'Coming up' }).waitFor();
    const [row] = await rowsOf(session, 'Scheduled campaigns');
    expect(row![0]).toBe('Spring sale');
    expect(row![1]).toBe(
      await page.evaluate((iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }), at),
    );
    await page.getByText('No activity yet').waitFor();
    await checkPage(page, 'activity-upcoming');
    await session.close();
  });

  it('draws the emails over time with their counts, for the period chosen', async () => {
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, s.sender.user, s.sender.project.id, '/analytics?period=7d');
    const legend = page.locator('figure', { hasText: 'Emails per day' }).locator('.legend');
    await legend.getByText('Sent: 2').waitFor();
    expect(await legend.textContent()).toMatch(/Sent: 2.*Opened: [01]/);
    // One point per day of the week (the range widened to whole UTC days), the line rising to the day of the sends.
    const line = await page.locator('figure', { hasText: 'Emails per day' }).locator('polyline[data-series="sent"]').getAttribute('points');
    expect(line!.split(' ').length).toBeGreaterThanOrEqual(7);
    // The two recipients became the project's contacts today.
    const contacts = page.locator('figure', { hasText: 'Contacts per day' }).locator('.legend');
    expect(await contacts.textContent()).toMatch(/Contacts: 2.*New: 2/);
    await page.getByText('signed-up').waitFor();
    expect(await rowsOf(session, 'Events tracked most often')).toEqual([['signed-up', '2']]);
    await checkPage(page, 'analytics');

    await page.locator('figure', { hasText: 'Emails per day' }).getByText('Show as a table').click();
    const days = await rowsOf(session, 'Emails per day');
    expect(days.length).toBeGreaterThanOrEqual(7);
    // Columns: day, sent, delivered, opened, clicked; the sends are today, the last row.
    expect(days.at(-1)![1]).toBe('2');
    expect(days.slice(0, -1).every((d) => d[1] === '0')).toBe(true);
    await checkPage(page, 'analytics-table');

    await page.getByLabel('Period').selectOption('24h');
    await page.locator('figure', { hasText: 'Emails per hour' }).locator('.legend').getByText('Sent: 2').waitFor();
    expect(page.url()).toContain('period=24h');
    await checkPage(page, 'analytics-hourly');
    await session.close();
  });

  it('lets an owner set the monthly limits, shows them to a MEMBER read-only, and shows the month used', async () => {
    const { user: owner, project } = await newTenant(suite.stack);
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, owner, project.id, '/billing');
    await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
    await page.getByText('Transactional: 0 sent, no cap').waitFor();
    expect(await page.getByRole('button', { name: 'Choose a plan' }).count()).toBe(0);

    await page.getByLabel('Transactional emails per month').fill('-5');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.locator('.field-invalid').count()).toBe(1);
    await checkPage(page, 'billing-refused');

    await page.getByLabel('Transactional emails per month').fill('1000');
    await page.getByLabel('Campaigns emails per month').fill('0');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await page.getByRole('status').filter({ hasText: 'Limits saved.' }).waitFor();
    await page.getByText('0 / 1,000 (0%)').waitFor();
    const limits = await suite.stack.http().get(`/users/@me/projects/${project.id}/billing-limits`).set('Cookie', owner.cookie).expect(200);
    expect(limits.body.limits).toEqual({ TRANSACTIONAL: 1000, CAMPAIGN: 0, WORKFLOW: null, INBOUND: null });
    await checkPage(page, 'billing-owner');
    await session.close();

    const member = await joinedUser(suite.stack, owner, project, 'MEMBER');
    const other = await freshSession(suite.browser);
    await logInAs(other, member, project.id, '/billing');
    await other.page.getByText('Only owners and admins change the limits.').waitFor();
    expect(await rowsOf(other, 'Monthly limits')).toEqual([
      ['Transactional', '1,000'],
      ['Campaigns', '0'],
      ['Automations', 'Unlimited'],
      ['Inbound', 'Unlimited'],
    ]);
    expect(await other.page.getByRole('button', { name: 'Save limits' }).count()).toBe(0);
    expect(await other.page.getByRole('spinbutton').count()).toBe(0);
    await checkPage(other.page, 'billing-member');
    await other.close();
  });

  it('shows the bounce and complaint rates against the thresholds, what they leave out, and the suspensions', async () => {
    const { user, project } = await newTenant(suite.stack);
    await seedSentEmails(suite.stack, project.id, [
      { count: 187 },
      { count: 12, outcome: 'bounce' },
      { count: 1, outcome: 'complaint' },
      { count: 30, outcome: 'bounce', simulated: true },
    ]);
    await sql(suite.stack, `update projects set disabled = true, disabled_reason = 'Too many bounces' where id = ?`, [project.id]);
    await sql(suite.stack, `update projects set disabled = false, disabled_reason = null where id = ?`, [project.id]);

    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, user, project.id, '/security');
    const bounce = page.getByRole('region', { name: 'Bounce rate' });
    await bounce.getByText('6.0%').waitFor();
    expect(await bounce.textContent()).toMatch(/Warning.*12 in 7 days/);
    const complaint = page.getByRole('region', { name: 'Complaint rate' });
    expect(await complaint.textContent()).toMatch(/0\.5%.*Critical.*1 in 7 days/);
    await page.getByText('200 emails sent').waitFor();
    expect(await page.locator('.simulated-note').textContent()).toBe(
      'Mail to the simulator addresses is left out of these figures, of analytics and of billing: 30 simulated emails in this time.',
    );
    const suspensions = await rowsOf(session, 'Recent suspensions');
    expect(suspensions).toHaveLength(1);
    expect(suspensions[0]![2]).toBe('Too many bounces');
    expect(suspensions[0]![3]).toBe('Operator');
    expect(suspensions[0]![1]).not.toBe('ongoing');
    expect(await page.locator('.suspended-banner').count()).toBe(0);
    await checkPage(page, 'security');
    await session.close();
  });

  it('shows why a suspended project is suspended on every page, and by whom on the Security page', async () => {
    const { user, project } = await newTenant(suite.stack);
    const reason = 'Bounce rate 12.5% over 7 days is above the critical level of 10%';
    await suspendProject(suite.stack.deps.orm.em.fork(), project.id, reason, 'automatic');
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, user, project.id, '/');
    const banner = page.locator('.suspended-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain(`This project is suspended: it sends nothing.${reason}`);
    await page.getByRole('link', { name: 'Security', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Security' }).waitFor();
    expect(await page.locator('.suspended-banner').textContent()).toContain(reason);
    await page.getByRole('cell', { name: 'Automatic' }).waitFor();
    const suspensions = await rowsOf(session, 'Recent suspensions');
    expect(suspensions[0]!.slice(1)).toEqual(['ongoing', reason, 'Automatic']);
    await checkPage(page, 'security-suspended');
    await session.close();
  });
});
