import { startStack } from '../helpers/stack';
import { startWorker } from '../helpers/temporal';
import { checkPage, freshSession, logInAs, rowsOf } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';
import { campaignTenant } from '../helpers/tenants';
import { parseMail, waitForMail } from '../helpers/mail';
import { waitFor } from '../helpers/wait';
import { addContact } from '../segments/helpers';
import { pathOf, pixelOf } from '../tracking/helpers';
import { createCampaign } from '../campaigns/helpers';

// Limits, not targets: a loaded machine can take a while to send even a few emails through the worker.
jest.setTimeout(180_000);
const SEND_LIMIT_MS = 90_000;

const suite = dashboardSuite(() => startStack({ worker: startWorker, pump: true, terminateWorkflows: true }));

/** `YYYY-MM-DDTHH:MM` as a datetime-local input takes it, in this machine's zone (the browser's too). */
const localInput = (d: Date) => {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

describe('the dashboard: campaigns', () => {
  it('composes a campaign, shows its audience, sends a test, sends it with progress and figures, then schedules and cancels another', async () => {
    const t = await campaignTenant(suite.stack);
    const tag = t.project.id.slice(0, 8);
    const readers = ['ann', 'bob', 'cat', 'dan', 'eve'].map((n) => `${n}-${tag}@example.test`);
    for (const email of readers) await addContact(t, email, { name: email.slice(0, 3) });
    const unsubscribed = `out-${tag}@example.test`;
    await addContact(t, unsubscribed, {}, false);

    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, t.user, t.project.id, '/campaigns');
    await page.getByText('No campaign yet').waitFor();
    await checkPage(page, 'campaigns-empty');

    await page.getByRole('link', { name: 'New campaign' }).click();
    await page.getByRole('heading', { level: 1, name: 'New campaign' }).waitFor();
    await page.getByRole('option', { name: `@${t.domain}` }).waitFor({ state: 'attached' });
    await checkPage(page, 'campaigns-compose');
    // Nothing filled in: the API's refusal names each missing field beside its input.
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/name is required/);
    expect(await page.locator('.field-error').allTextContents()).toEqual(
      expect.arrayContaining(['name is required', 'subject is required (or give templateId)']),
    );
    await checkPage(page, 'campaigns-compose-invalid');
    expect((await t.c.get('/campaigns').expect(200)).body.total).toBe(0);

    await page.getByLabel('Name', { exact: true }).fill('Spring news');
    await page.getByLabel('Sender address').fill('news');
    expect(await page.getByLabel('Sender domain').inputValue()).toBe(t.domain);
    await page.getByLabel('Sender name').fill('The Team');
    await page.getByLabel('Subject').fill('Hello {{ name }}');
    await page.getByLabel('Body (HTML with Liquid)').fill('<p>Spring is here, {{ name }}.</p>');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { level: 1, name: 'Spring news' }).waitFor();
    // The audience as the API counts it before sending: the subscribed contacts only.
    expect(await page.getByTestId('audience-count').textContent()).toBe('5 contacts');
    const [draft] = (await t.c.get('/campaigns').expect(200)).body.data;
    expect(draft).toMatchObject({ status: 'DRAFT', from: t.from, fromName: 'The Team', audienceType: 'ALL', totalRecipients: 5 });
    await checkPage(page, 'campaigns-draft');

    // A test goes to the member looking at the page.
    expect(await page.getByLabel('Send a test to').inputValue()).toBe(t.user.email);
    await page.getByRole('button', { name: 'Send test' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Test email queued for ${t.user.email}` })
      .waitFor();
    const test = await waitForMail(suite.stack.smtp, t.user.email, /^\[TEST\] Hello/, SEND_LIMIT_MS);
    expect(test.html).toContain('Spring is here');

    // The server keeps the messages unacknowledged for a while: the page shows the send under way at 0 of 5.
    suite.stack.smtp.hold();
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByRole('button', { name: 'Yes, send now' }).click();
    await page.getByRole('status').filter({ hasText: 'Campaign is being sent to 5 recipients' }).waitFor();
    const progress = page.getByRole('progressbar', { name: 'Sent' });
    await progress.waitFor();
    expect(await page.locator('.progress-label').textContent()).toContain('0 / 5');
    expect(await page.getByRole('definition').filter({ hasText: /^0$/ }).count()).toBeGreaterThan(0);
    await checkPage(page, 'campaigns-sending');
    await waitFor('the messages to reach the server', async () => (suite.stack.smtp.holding > 0 ? true : undefined), SEND_LIMIT_MS);

    // Acknowledged: the figures move on the open page, and the campaign ends SENT.
    suite.stack.smtp.release();
    const figures = page.getByRole('region', { name: 'Figures' });
    // The campaign's status, in its header (the recipients below have statuses of their own).
    await page.locator('.page-header .badge', { hasText: /^Sent$/ }).waitFor({ timeout: SEND_LIMIT_MS });
    expect(await progress.count()).toBe(0);
    await page.getByText('Campaign is being sent to 5 recipients').waitFor({ state: 'detached' });
    const figure = (label: string) =>
      figures.locator('div', { has: page.getByRole('term').filter({ hasText: new RegExp(`^${label}$`) }) }).getByRole('definition');
    expect(await figure('Recipients').textContent()).toBe('5');
    expect(await figure('Sent').textContent()).toBe('5');
    expect(await figure('Opened').textContent()).toBe('0 0.0%');
    expect(readers.map((r) => suite.stack.smtp.to(r).length)).toEqual([1, 1, 1, 1, 1]);
    expect(suite.stack.smtp.to(unsubscribed)).toEqual([]);
    const ann = await parseMail(suite.stack.smtp.to(readers[0]!)[0]!);
    expect(ann.subject).toBe('Hello ann');

    // One recipient opens it: the figures and the rate the API reports follow.
    await suite.stack
      .http()
      .get(pathOf(pixelOf(ann.html!)!))
      .expect(200);
    await page.getByRole('button', { name: 'Refresh figures' }).click();
    await figures.getByText('20.0%').waitFor();
    expect(await figure('Opened').textContent()).toBe('1 20.0%');
    const stats = (await t.c.get(`/campaigns/${draft.id}/stats`).expect(200)).body;
    expect(stats).toMatchObject({ sentCount: 5, openedCount: 1, openRate: 20 });
    await checkPage(page, 'campaigns-sent');

    // Another one from a template (its subject, body and sender fill what is left empty), scheduled for
    // tomorrow, then cancelled: back to a draft with no schedule.
    const template = (
      await t.c
        .post('/templates')
        .send({ name: 'Seasonal', subject: 'Summer', body: '<p>Summer is coming.</p>', from: t.from, type: 'MARKETING' })
        .expect(201)
    ).body;
    await page.goto(`${suite.browser.base}#/campaigns/new`);
    await page.getByLabel('Name', { exact: true }).fill('Summer news');
    await page.getByLabel('Find a template').fill('seaso');
    await page.getByRole('option', { name: 'Seasonal' }).waitFor({ state: 'attached' });
    await page.getByLabel('Template', { exact: true }).selectOption(template.id);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { level: 1, name: 'Summer news' }).waitFor();
    expect(await page.locator('.summary').textContent()).toContain(`SubjectSummerFrom${t.from}`);
    const when = new Date(Date.now() + 24 * 3600_000);
    when.setSeconds(0, 0);
    await page.getByLabel('Schedule for').fill(localInput(when));
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Campaign scheduled for ${when.toISOString()}` })
      .waitFor();
    await page.getByRole('button', { name: 'Cancel schedule' }).waitFor();
    const summer = (await t.c.get('/campaigns?search=Summer').expect(200)).body.data[0];
    expect(summer).toMatchObject({ status: 'SCHEDULED', scheduledFor: when.toISOString(), templateId: template.id, subject: 'Summer' });
    await checkPage(page, 'campaigns-scheduled');

    await page.getByRole('button', { name: 'Cancel schedule' }).click();
    await page.getByRole('button', { name: 'Yes, cancel schedule' }).click();
    await page.getByRole('status').filter({ hasText: /draft/i }).waitFor();
    await page.locator('.page-header .badge', { hasText: /^Draft$/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel schedule' }).count()).toBe(0);
    expect((await t.c.get(`/campaigns/${summer.id}`).expect(200)).body).toMatchObject({ status: 'DRAFT', scheduledFor: null });
    await checkPage(page, 'campaigns-schedule-cancelled');

    // A draft is edited in the same form, which keeps what it had.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Summer news' }).waitFor();
    expect(await page.getByLabel('Subject').inputValue()).toBe('Summer');
    await checkPage(page, 'campaigns-edit');
    await page.getByLabel('Name', { exact: true }).fill('Summer news, final');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Summer news, final' }).waitFor();
    expect((await t.c.get(`/campaigns/${summer.id}`).expect(200)).body).toMatchObject({
      name: 'Summer news, final',
      templateId: template.id,
    });

    // The list pages and filters on the server.
    await page.goto(`${suite.browser.base}#/campaigns`);
    await page.getByRole('row').filter({ hasText: 'Summer news' }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'Spring news' }).textContent()).toContain('Sent');
    expect(await page.getByRole('row').filter({ hasText: 'Summer news' }).textContent()).toContain('Draft');
    await checkPage(page, 'campaigns-list');
    await page.getByLabel('Status').selectOption('SENT');
    await page.getByRole('row').filter({ hasText: 'Summer news' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('row').filter({ hasText: 'Spring news' }).count()).toBe(1);
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Search').fill('summ');
    await page.getByRole('row').filter({ hasText: 'Spring news' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('row').filter({ hasText: 'Summer news' }).count()).toBe(1);
    await session.close();
  });
  it('keeps the part before @ typed while the verified domains arrive, and saves the whole address', async () => {
    const t = await campaignTenant(suite.stack);
    const session = await freshSession(suite.browser);
    const { page } = session;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/domains/project/**', async (route) => {
      await held;
      await route.continue();
    });
    await logInAs(session, t.user, t.project.id, '/campaigns/new');
    await page.getByLabel('Name', { exact: true }).fill('Late domains');
    // With the page's clock stopped, the render that brings the domains has its effects still pending when the
    // part before @ is typed: the default domain must not put back the empty part of that render.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 60_000);
    release();
    await page.getByRole('option', { name: `@${t.domain}` }).waitFor({ state: 'attached' });
    await page.getByLabel('Sender address').fill('news');
    await page.clock.resume();
    await page.getByLabel('Subject').fill('Hello');
    await page.getByLabel('Body (HTML with Liquid)').fill('<p>Hello.</p>');
    expect([await page.getByLabel('Sender address').inputValue(), await page.getByLabel('Sender domain').inputValue()]).toEqual([
      'news',
      t.domain,
    ]);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { level: 1, name: 'Late domains' }).waitFor();
    expect((await t.c.get('/campaigns').expect(200)).body.data).toEqual([expect.objectContaining({ name: 'Late domains', from: t.from })]);
    await session.close();
  });

  it('counts every kind of audience live before saving, builds a FILTERED one in the filter builder, and sends only to the contacts it matches', async () => {
    const t = await campaignTenant(suite.stack);
    const tag = t.project.id.slice(0, 8);
    const email = (n: string) => `${n}-${tag}@example.test`;
    // Only ann is a subscribed pro who purchased: bob never purchased, cat is not pro, dan unsubscribed.
    await addContact(t, email('ann'), { plan: 'pro' });
    await addContact(t, email('bob'), { plan: 'pro' });
    await addContact(t, email('cat'), { plan: 'free' });
    await addContact(t, email('dan'), { plan: 'pro' }, false);
    for (const n of ['ann', 'cat', 'dan']) await t.c.track({ email: email(n), event: 'purchase' }).expect(200);
    const picked = (await t.c.post('/segments').send({ name: 'Picked', type: 'STATIC' }).expect(201)).body;
    await t.c
      .post(`/segments/${picked.id}/members`)
      .send({ emails: [email('ann'), email('dan')] })
      .expect(200);

    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, t.user, t.project.id, '/campaigns/new');
    await page.getByRole('heading', { level: 1, name: 'New campaign' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Pro buyers');
    await page.getByRole('option', { name: `@${t.domain}` }).waitFor({ state: 'attached' });
    await page.getByLabel('Sender address').fill('news');
    await page.getByLabel('Subject').fill('Thanks for buying');
    await page.getByLabel('Body (HTML with Liquid)').fill('<p>Thank you.</p>');

    // The live count is the audience's: subscribed contacts only for a marketing campaign, every one for a transactional.
    const count = page.getByRole('status').filter({ hasText: /match/ });
    await count.filter({ hasText: '3 subscribed contacts match now' }).waitFor();
    await page.getByRole('combobox', { name: 'Audience', exact: true }).selectOption('SEGMENT');
    await page.getByLabel('Segment', { exact: true }).selectOption(picked.id);
    await count.filter({ hasText: '1 subscribed contact matches now' }).waitFor();
    await page.getByLabel('Type', { exact: true }).selectOption('TRANSACTIONAL');
    await count.filter({ hasText: '2 contacts match now' }).waitFor();
    await page.getByRole('combobox', { name: 'Audience', exact: true }).selectOption('ALL');
    await count.filter({ hasText: '4 contacts match now' }).waitFor();
    await page.getByLabel('Type', { exact: true }).selectOption('MARKETING');

    await page.getByRole('combobox', { name: 'Audience', exact: true }).selectOption('FILTERED');
    const condition = (name: string) => page.getByRole('group', { name, exact: true });
    const plan = condition('Group 1, condition 1');
    await plan.getByLabel('Field', { exact: true }).selectOption({ label: 'plan (string)' });
    await plan.getByLabel('Value', { exact: true }).fill('pro');
    await page.getByRole('button', { name: 'Add condition to group 1' }).click();
    const purchase = condition('Group 1, condition 2');
    await purchase.getByLabel('Field', { exact: true }).selectOption({ label: 'Event purchase' });
    expect(await purchase.getByLabel('Operator').inputValue()).toBe('triggered');
    await count.filter({ hasText: '1 subscribed contact matches now' }).waitFor();
    await checkPage(page, 'campaigns-compose-filtered');
    await page.getByLabel('Type', { exact: true }).selectOption('TRANSACTIONAL');
    await count.filter({ hasText: '2 contacts match now' }).waitFor();
    await page.getByLabel('Type', { exact: true }).selectOption('MARKETING');
    await count.filter({ hasText: '1 subscribed contact matches now' }).waitFor();

    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { level: 1, name: 'Pro buyers' }).waitFor();
    expect(await page.getByTestId('audience-count').textContent()).toBe('1 contact');
    const [draft] = (await t.c.get('/campaigns').expect(200)).body.data;
    expect(draft).toMatchObject({
      audienceType: 'FILTERED',
      totalRecipients: 1,
      audienceCondition: {
        logic: 'AND',
        groups: [
          {
            filters: [
              { field: 'data.plan', operator: 'equals', value: 'pro' },
              { field: 'event.purchase', operator: 'triggered' },
            ],
          },
        ],
      },
    });
    expect(draft.audienceCondition.groups[0].filters[1]).not.toHaveProperty('value');

    // The draft opens in the builder as it was saved.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Pro buyers' }).waitFor();
    expect(await condition('Group 1, condition 1').getByLabel('Value', { exact: true }).inputValue()).toBe('pro');
    expect(await condition('Group 1, condition 2').getByLabel('Operator').inputValue()).toBe('triggered');
    await count.filter({ hasText: '1 subscribed contact matches now' }).waitFor();
    await checkPage(page, 'campaigns-edit-filtered');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Pro buyers' }).waitFor();

    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByRole('button', { name: 'Yes, send now' }).click();
    await page.locator('.page-header .badge', { hasText: /^Sent$/ }).waitFor({ timeout: SEND_LIMIT_MS });
    await waitForMail(suite.stack.smtp, email('ann'), /^Thanks for buying$/, SEND_LIMIT_MS);
    expect(['ann', 'bob', 'cat', 'dan'].map((n) => suite.stack.smtp.to(email(n)).length)).toEqual([1, 0, 0, 0]);
    await session.close();
  });
  it('stops a send under way: CANCELLED, and what had left is counted', async () => {
    const t = await campaignTenant(suite.stack);
    const tag = t.project.id.slice(0, 8);
    for (const n of ['kim', 'lou', 'max']) await addContact(t, `${n}-${tag}@example.test`);
    const campaign = await createCampaign(t, { name: 'Flash sale' });
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, t.user, t.project.id, `/campaigns/${campaign.id}`);
    await page.getByRole('heading', { level: 1, name: 'Flash sale' }).waitFor();

    let left = 0;
    suite.stack.smtp.hold();
    try {
      await page.getByRole('button', { name: 'Send now' }).click();
      await page.getByRole('button', { name: 'Yes, send now' }).click();
      await page.getByRole('progressbar', { name: 'Sent' }).waitFor();
      // A message the server has in full has left: the cancel cannot take it back.
      await waitFor('a message to reach the server', async () => (suite.stack.smtp.holding > 0 ? true : undefined), SEND_LIMIT_MS);
      await page.getByRole('button', { name: 'Stop sending' }).click();
      await page.getByRole('button', { name: 'Yes, stop sending' }).click();
      const cancelled = page.getByRole('status').filter({ hasText: /emails had already left, the rest will not be sent/ });
      await cancelled.waitFor();
      left = Number(/(\d+) emails had already left/.exec((await cancelled.textContent())!)![1]);
    } finally {
      suite.stack.smtp.release();
    }
    await page.locator('.page-header .badge', { hasText: /^Cancelled$/ }).waitFor();
    expect(await page.getByRole('progressbar').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Stop sending' }).count()).toBe(0);
    expect((await t.c.get(`/campaigns/${campaign.id}`).expect(200)).body.status).toBe('CANCELLED');
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(3);
    // Once the server has acknowledged them, the figures count exactly what had left.
    await waitFor(
      'the messages that had left to be counted',
      async () => {
        const stats = (await t.c.get(`/campaigns/${campaign.id}/stats`).expect(200)).body;
        return stats.sentCount === left ? stats : undefined;
      },
      SEND_LIMIT_MS,
    );
    await page.getByRole('button', { name: 'Refresh figures' }).click();
    const figures = page.getByRole('region', { name: 'Figures' });
    await figures
      .locator('div', { has: page.getByRole('term').filter({ hasText: /^Sent$/ }) })
      .getByRole('definition')
      .filter({ hasText: new RegExp(`^${left}$`) })
      .waitFor();
    // Who did not get it: the recipients whose email the cancel withdrew, never handed to SMTP.
    const recipients = page.getByRole('region', { name: 'Recipients' });
    await recipients.getByLabel('Show').selectOption('NOT_SENT');
    await recipients
      .getByTestId('recipients-total')
      .filter({ hasText: `${3 - left} recipient` })
      .waitFor();
    expect(await recipients.getByText('Never handed to the SMTP server', { exact: false }).count()).toBe(3 - left);
    await recipients.getByLabel('Show').selectOption('SENT');
    await recipients
      .getByTestId('recipients-total')
      .filter({ hasText: `${left} recipient` })
      .waitFor();
    expect(await recipients.getByRole('row').count()).toBe(left + 1);
    await checkPage(page, 'campaigns-stopped');
    await session.close();
  });

  it('composes an A/B test, follows it, and sends the variant chosen by hand to the rest', async () => {
    const t = await campaignTenant(suite.stack);
    const tag = t.project.id.slice(0, 8);
    const readers = Array.from({ length: 10 }, (_, i) => `r${i}-${tag}@example.test`);
    for (const email of readers) await addContact(t, email);
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, t.user, t.project.id, '/campaigns/new');
    await page.getByRole('option', { name: `@${t.domain}` }).waitFor({ state: 'attached' });
    await page.getByLabel('Name', { exact: true }).fill('Which subject');
    await page.getByLabel('Sender address', { exact: true }).fill('news');
    await page.getByLabel('Subject', { exact: true }).fill('Plain subject');
    await page.getByLabel('Body (HTML with Liquid)').fill('<p>News</p>');
    await page.getByLabel('Test variants before sending to everyone').check();
    await page.getByLabel('Variant A subject').fill('Subject A');
    await page.getByLabel('Variant B subject').fill('Subject B');
    await page.getByRole('button', { name: 'Add a variant' }).click();
    await page.getByLabel('Variant C subject').fill('Subject C');
    await page.getByRole('button', { name: 'Remove variant C' }).click();
    await page.getByLabel('Winner').selectOption('MANUAL');
    await checkPage(page, 'campaigns-compose-ab');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { level: 1, name: 'Which subject' }).waitFor();
    const [saved] = (await t.c.get('/campaigns').expect(200)).body.data;
    expect(saved.abTest).toEqual({
      testPercent: 20,
      waitMinutes: 240,
      winnerBy: 'MANUAL',
      variants: [{ subject: 'Subject A' }, { subject: 'Subject B' }],
    });

    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByRole('button', { name: 'Yes, send now' }).click();
    const test = page.getByRole('region', { name: 'A/B test' });
    await test.getByText('choose the winner below').waitFor({ timeout: SEND_LIMIT_MS });
    await waitFor(
      'the test share to leave',
      async () => (readers.filter((r) => suite.stack.smtp.to(r).length > 0).length === 2 ? true : undefined),
      SEND_LIMIT_MS,
    );
    await checkPage(page, 'campaigns-ab-waiting');
    // The variants' rates are written as every other rate of the dashboard: one decimal ("0.0%", never "66.67%").
    const opened = await rowsOf(session, 'Variants');
    expect(opened.flat().filter((cell) => /%\)$/.test(cell))).toEqual(['0 (0.0%)', '0 (0.0%)', '0 (0.0%)', '0 (0.0%)']);
    await test.getByRole('button', { name: 'Choose B' }).click();
    await test.getByRole('button', { name: 'Yes, choose b' }).click();
    await page.getByRole('status').filter({ hasText: 'Variant B goes to the rest' }).waitFor();
    await page.locator('.page-header .badge', { hasText: /^Sent$/ }).waitFor({ timeout: SEND_LIMIT_MS });
    await test.getByText(/Variant B won \(chosen by hand/).waitFor();
    expect(readers.map((r) => suite.stack.smtp.to(r).length)).toEqual(readers.map(() => 1));
    const subjects = await Promise.all(readers.map(async (r) => (await parseMail(suite.stack.smtp.to(r)[0]!)).subject));
    expect(subjects.filter((s) => s === 'Subject B')).toHaveLength(9);
    expect(subjects.filter((s) => s === 'Subject A')).toHaveLength(1);
    await checkPage(page, 'campaigns-ab-decided');
    await session.close();
  });
});
