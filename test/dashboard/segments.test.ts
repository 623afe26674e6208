import type { Locator, Page } from 'playwright-core';
import { startStack } from '../helpers/stack';
import { checkPage, freshSession, logInAs } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';
import { tenant, type Tenant } from '../helpers/tenants';
import { addContact, createSegment, proPlan } from '../segments/helpers';

const suite = dashboardSuite(() => startStack({ terminateWorkflows: true }));

const condition = (page: Page, name: string) => page.getByRole('group', { name, exact: true });
const liveCount = (page: Page, n: number) =>
  page
    .getByTestId('live-count')
    .filter({ hasText: new RegExp(`^${n}$`) })
    .waitFor();
const optionsOf = (select: Locator) => select.locator('option').allTextContents();

async function withContacts(t: Tenant) {
  await addContact(t, 'ann@example.test', { plan: 'pro', seats: 12 });
  await addContact(t, 'bob@example.test', { plan: 'free', seats: 3 });
  await addContact(t, 'cat@example.test', { plan: 'pro', seats: 2 });
  await addContact(t, 'dan@example.test', { plan: 'enterprise', seats: 50 }, false);
  await t.c.track({ event: 'purchase', email: 'ann@example.test' }).expect(200);
  await t.c.track({ event: 'purchase', email: 'dan@example.test' }).expect(200);
}

describe('the dashboard: segments', () => {
  it('builds a segment with AND/OR groups, a data field and an event, counting live, then saves it and lists its members', async () => {
    const t = await tenant(suite.stack);
    await withContacts(t);
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, t.user, t.project.id, '/segments');
    await page.getByText('No segments yet.').waitFor();
    await checkPage(page, 'segments-empty');

    await page.getByRole('link', { name: 'New segment' }).click();
    await page.getByRole('heading', { level: 1, name: 'New segment' }).waitFor();
    await liveCount(page, 3);
    await checkPage(page, 'segments-new');

    const first = condition(page, 'Group 1, condition 1');
    await first.getByLabel('Field').selectOption({ label: 'plan (string)' });
    // A text field offers only the operators the API takes for text.
    expect(await optionsOf(first.getByLabel('Operator'))).toEqual(['is', 'is not', 'contains', 'does not contain', 'is set', 'is not set']);
    await first.getByLabel('Value').fill('pro');
    await liveCount(page, 2);

    await page.getByRole('button', { name: 'Add condition to group 1' }).click();
    const second = condition(page, 'Group 1, condition 2');
    await second.getByLabel('Field').selectOption({ label: 'seats (number)' });
    expect(await optionsOf(second.getByLabel('Operator'))).toEqual([
      'is',
      'is not',
      'is greater than',
      'is less than',
      'is at least',
      'is at most',
      'is set',
      'is not set',
    ]);
    await second.getByLabel('Operator').selectOption({ label: 'is greater than' });
    await second.getByLabel('Value').fill('5');
    await liveCount(page, 1);

    await page.getByRole('button', { name: 'Add group', exact: true }).click();
    const event = condition(page, 'Group 2, condition 1');
    await event.getByLabel('Field').selectOption({ label: 'Event purchase' });
    expect(await optionsOf(event.getByLabel('Operator'))).toEqual([
      'happened',
      'never happened',
      'happened within the last',
      'did not happen within the last',
      'happened, but not within the last',
    ]);
    // AND of the two groups: ann is pro with 12 seats and purchased.
    await liveCount(page, 1);
    await page.getByLabel('Combine groups').selectOption({ label: 'any' });
    await liveCount(page, 2);
    await event.getByLabel('Operator').selectOption({ label: 'happened within the last' });
    await event.getByLabel('Amount').fill('7');
    await event.getByLabel('Unit').selectOption('days');
    await liveCount(page, 2);
    await checkPage(page, 'segments-builder');

    // A condition still being filled in is not counted (nor sent to the API, which would refuse it with a 400).
    await second.getByLabel('Value').fill('');
    await page.getByText('Finish the condition to count it.').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await checkPage(page, 'segments-unfinished');
    await second.getByLabel('Value').fill('5');
    await liveCount(page, 2);

    await page.getByLabel('Name').fill('Big buyers');
    await page.getByRole('button', { name: 'Create segment' }).click();
    await page.getByRole('heading', { level: 1, name: 'Big buyers' }).waitFor();
    const members = page.getByRole('region', { name: 'Members' });
    await members.getByRole('cell', { name: 'dan@example.test' }).waitFor();
    expect((await members.locator('tbody tr td:first-child').allTextContents()).sort()).toEqual(['ann@example.test', 'dan@example.test']);
    const [saved] = (await t.c.get('/segments').expect(200)).body;
    expect(saved).toMatchObject({
      name: 'Big buyers',
      type: 'DYNAMIC',
      memberCount: 2,
      condition: {
        logic: 'OR',
        groups: [
          {
            filters: [
              { field: 'data.plan', operator: 'equals', value: 'pro' },
              { field: 'data.seats', operator: 'greaterThan', value: 5 },
            ],
          },
          { filters: [{ field: 'event.purchase', operator: 'triggeredWithin', value: 7, unit: 'days' }] },
        ],
      },
    });
    expect(page.url()).toContain(`#/segments/${saved.id}`);
    await checkPage(page, 'segments-saved');

    // Editing the saved segment counts afresh and saves the new condition.
    await liveCount(page, 2);
    await page.getByLabel('Combine groups').selectOption({ label: 'all' });
    await liveCount(page, 1);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved: 1 member.' }).waitFor();
    await members.locator('tbody tr').filter({ hasText: 'dan@example.test' }).waitFor({ state: 'detached' });
    expect(await members.locator('tbody tr td:first-child').allTextContents()).toEqual(['ann@example.test']);
    expect((await t.c.get(`/segments/${saved.id}`).expect(200)).body).toMatchObject({ memberCount: 1, condition: { logic: 'AND' } });

    await page.getByRole('link', { name: 'All segments' }).click();
    const row = page.locator('tbody tr', { hasText: 'Big buyers' });
    await row.waitFor();
    expect(await row.locator('td').nth(2).textContent()).toBe('1');
    await checkPage(page, 'segments-list');
    await session.close();
  });

  it('nests conditions, offers segments and email activity, and deletes', async () => {
    const t = await tenant(suite.stack);
    await withContacts(t);
    const pro = await createSegment(t, { name: 'Pro', condition: proPlan });
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, t.user, t.project.id, `/segments/new`);
    await liveCount(page, 3);
    const first = condition(page, 'Group 1, condition 1');
    await first.getByLabel('Field').selectOption({ label: 'Segment Pro' });
    expect(await optionsOf(first.getByLabel('Operator'))).toEqual(['is a member', 'is not a member']);
    await liveCount(page, 2);
    await page.getByRole('button', { name: 'Add nested conditions to group 1' }).click();
    const nested = condition(page, 'Group 1.1, condition 1');
    await nested.getByLabel('Field').selectOption({ label: 'Email opened' });
    await nested.getByLabel('Operator').selectOption({ label: 'never happened' });
    await liveCount(page, 2);
    await page.getByRole('button', { name: 'Add group to group 1' }).click();
    await condition(page, 'Group 1.2, condition 1').getByLabel('Field').selectOption({ label: 'Created' });
    const created = condition(page, 'Group 1.2, condition 1');
    expect(await optionsOf(created.getByLabel('Operator'))).toContain('is within the last');
    await created.getByLabel('Operator').selectOption({ label: 'is older than' });
    await created.getByLabel('Amount').fill('30');
    // Both nested groups must hold (all): nobody was created 30 days ago.
    await liveCount(page, 0);
    await page.getByLabel('Combine groups of group 1').selectOption({ label: 'any' });
    await liveCount(page, 2);
    const custom = condition(page, 'Group 1, condition 1');
    await custom.getByLabel('Field').selectOption({ label: 'Another custom field…' });
    await custom.getByLabel('Custom field path').fill('team.size');
    await custom.getByLabel('Compare as').selectOption({ label: 'number' });
    await custom.getByLabel('Operator').selectOption({ label: 'is not set' });
    await liveCount(page, 4);
    await checkPage(page, 'segments-nested');
    await page.getByLabel('Name').fill('Nested');
    await page.getByRole('button', { name: 'Create segment' }).click();
    await page.getByRole('heading', { level: 1, name: 'Nested' }).waitFor();
    const stored = (await t.c.get('/segments').expect(200)).body.find((s: { name: string }) => s.name === 'Nested');
    expect(stored.condition.groups[0]).toEqual({
      filters: [{ field: 'data.team.size', operator: 'notExists' }],
      conditions: {
        logic: 'OR',
        groups: [
          { filters: [{ field: 'email.opened', operator: 'notTriggered' }] },
          { filters: [{ field: 'createdAt', operator: 'olderThan', value: 30, unit: 'days' }] },
        ],
      },
    });

    await page.getByRole('button', { name: 'Delete segment' }).click();
    await page.getByRole('button', { name: 'Yes, delete segment' }).click();
    await page.getByRole('heading', { level: 1, name: 'Segments' }).waitFor();
    await t.c.get(`/segments/${stored.id}`).expect(404);
    await page.locator('tbody tr', { hasText: 'Pro' }).waitFor();
    await t.c.get(`/segments/${pro.id}`).expect(200);
    await session.close();
  });

  it('makes a STATIC segment and changes its members by email', async () => {
    const t = await tenant(suite.stack);
    await withContacts(t);
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, t.user, t.project.id, '/segments/new');
    await page.getByLabel('Name').fill('Hand-picked');
    await page.getByLabel('Kind').selectOption('STATIC');
    expect(await page.getByLabel('Combine groups').count()).toBe(0);
    await page.getByRole('button', { name: 'Create segment' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hand-picked' }).waitFor();
    await page.getByText('No contact is in this segment.').waitFor();
    await page.getByLabel('Email addresses').fill('ann@example.test, nobody@example.test\ncat@example.test');
    await page.getByRole('button', { name: 'Add members' }).click();
    await page.getByRole('status').filter({ hasText: '2 added; no contact for nobody@example.test.' }).waitFor();
    const members = page.getByRole('region', { name: 'Members' });
    await members.getByRole('cell', { name: 'cat@example.test' }).waitFor();
    expect((await members.locator('tbody tr td:first-child').allTextContents()).sort()).toEqual(['ann@example.test', 'cat@example.test']);
    await checkPage(page, 'segments-static');
    await page.getByLabel('Email addresses').fill('cat@example.test');
    await page.getByRole('button', { name: 'Remove members' }).click();
    await page.getByRole('status').filter({ hasText: '1 removed.' }).waitFor();
    await members.getByRole('cell', { name: 'cat@example.test' }).waitFor({ state: 'detached' });
    const [segment] = (await t.c.get('/segments').expect(200)).body;
    expect(segment).toMatchObject({ name: 'Hand-picked', type: 'STATIC', memberCount: 1 });
    await session.close();
  });
});
