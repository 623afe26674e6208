import type { Page } from 'playwright-core';
import { startEngine } from '../automation/engine';
import { addContact } from '../automation/helpers';
import { checkPage, freshSession, logInAs, type BrowserSession } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';
import { senderTenant, type SenderTenant } from '../helpers/tenants';
import { waitFor } from '../helpers/wait';

const TEMPORAL_UI = 'http://temporal-ui.example.test:8233';

const suite = dashboardSuite(() => startEngine({ timeSkipping: false, env: { TEMPORAL_UI_URL: TEMPORAL_UI } }));

interface Graph {
  enabled: boolean;
  steps: Array<{ id: string; type: string; name: string | null; config: Record<string, unknown> }>;
  transitions: Array<{ fromStepId: string; toStepId: string; branch: string | null; outcome: string | null }>;
}

const graphOf = async (t: SenderTenant, id: string): Promise<Graph> => (await t.c.get(`/workflows/${id}`).expect(200)).body;

/** The id in the page's address: `#/automations/<id>…`. */
const workflowIdOf = (page: Page) => /#\/automations\/([0-9a-f-]{36})/.exec(page.url())![1]!;

/** Opens the side panel at `place` (a + button's label, or a node), chooses the type and fills its settings, then adds it. */
async function addStep(page: Page, place: string, type: string, fill: () => Promise<void>, nodeText: string) {
  await page.getByRole('button', { name: place, exact: true }).click();
  await page.getByLabel('Step type').selectOption(type);
  await fill();
  await page.getByRole('button', { name: 'Add step', exact: true }).click();
  await page.locator('.flow-node', { hasText: nodeText }).waitFor();
}

async function templateOf(t: SenderTenant, name: string): Promise<string> {
  const res = await t.c.post('/templates').send({ name, subject: 'Welcome, {{ contact.email }}', body: '<p>Hello</p>', from: t.from });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** Waits until the execution has ended, and returns it. */
const waitForExecution = (t: SenderTenant, workflowId: string, executionId: string) =>
  waitFor(
    'the execution to end',
    async () => {
      const e = (await t.c.get(`/workflows/${workflowId}/executions/${executionId}`).expect(200)).body;
      return e.status === 'RUNNING' || e.status === 'WAITING' ? undefined : e;
    },
    60_000,
  );

async function session(t: SenderTenant, route: string): Promise<BrowserSession> {
  const s = await freshSession(suite.browser);
  await logInAs(s, t.user, t.project.id, route);
  return s;
}

describe('the dashboard: automations', () => {
  it('builds an automation in the editor, enables it, and follows a tracked event to its finished execution and step history', async () => {
    const t = await senderTenant(suite.stack);
    const templateId = await templateOf(t, 'Welcome email');
    const s = await session(t, '/automations');
    const { page } = s;
    await page.getByText('No automations yet').waitFor();
    await checkPage(page, 'automations-empty');

    await page.getByLabel('Name', { exact: true }).fill('Onboarding');
    await page.getByLabel('Trigger event').fill('signup');
    await page.getByRole('button', { name: 'Create automation' }).click();
    await page.getByRole('heading', { level: 1, name: 'Onboarding' }).waitFor();
    const id = workflowIdOf(page);
    expect(await graphOf(t, id)).toMatchObject({ enabled: false, triggerType: 'EVENT', triggerConfig: { eventName: 'signup' }, steps: [] });
    await checkPage(page, 'automations-editor-empty');

    // Enabling an empty graph: the API's refusal, in its own words.
    await page.getByRole('button', { name: 'Enable' }).click();
    const refusal = (await t.c.patch(`/workflows/${id}`).send({ enabled: true }).expect(400)).body.error.message as string;
    await page.getByRole('alert').filter({ hasText: refusal }).waitFor();
    expect((await graphOf(t, id)).enabled).toBe(false);

    await addStep(
      page,
      'Add the first step',
      'SEND_EMAIL',
      async () => {
        // A template written in a new tab, without leaving the graph, is offered once this window has the focus.
        const [tab] = await Promise.all([page.waitForEvent('popup'), page.getByRole('link', { name: 'Write a new template' }).click()]);
        await tab.getByRole('heading', { level: 1, name: 'New template' }).waitFor();
        await tab.getByLabel('Name', { exact: true }).fill('Written on the way');
        await tab.getByLabel('From address').fill('hello');
        await tab
          .getByLabel('Sender domain')
          .locator('option', { hasText: `@${t.domain}` })
          .waitFor({ state: 'attached' });
        await tab.getByRole('button', { name: 'Create template' }).click();
        await tab.getByRole('heading', { level: 1, name: 'Written on the way' }).waitFor();
        await tab.close();
        await page.bringToFront();
        await page.evaluate("window.dispatchEvent(new Event('focus'))");
        const template = page.getByLabel('Template', { exact: true });
        await template.locator('option', { hasText: 'Written on the way' }).waitFor({ state: 'attached' });
        await template.selectOption({ label: 'Welcome email' });
      },
      'Template: Welcome email',
    );
    // The condition in the filter builder: a contact field OR a key of the execution context (the trigger's data).
    const condition = (name: string) => page.getByRole('group', { name, exact: true });
    await addStep(
      page,
      'Add a step after Send email',
      'CONDITION',
      async () => {
        const plan = condition('Group 1, condition 1');
        await plan.getByLabel('Field', { exact: true }).selectOption({ label: 'Another custom field…' });
        await plan.getByLabel('Custom field path').fill('plan');
        await plan.getByLabel('Compare as').selectOption({ label: 'text' });
        await plan.getByLabel('Value', { exact: true }).fill('pro');
        await page.getByRole('button', { name: 'Add group', exact: true }).click();
        const coupon = condition('Group 2, condition 1');
        await coupon.getByLabel('Field', { exact: true }).selectOption({ label: 'Another context key…' });
        await coupon.getByLabel('Context key').fill('coupon');
        await coupon.getByLabel('Compare as').selectOption({ label: 'text' });
        await coupon.getByLabel('Value', { exact: true }).fill('VIP');
        await page.getByLabel('Combine groups').selectOption({ label: 'any' });
        await checkPage(page, 'automations-condition-builder');
      },
      'data.plan equals pro or event.coupon equals VIP',
    );
    await addStep(
      page,
      'Add a step on the yes branch of Condition',
      'EXIT',
      async () => {
        await page.getByLabel('Step name (optional)').fill('Pro exit');
        await page.getByLabel('Reason').fill('Already pro');
      },
      'Pro exit',
    );
    await addStep(
      page,
      'Add a step on the no branch of Condition',
      'UPDATE_CONTACT',
      async () => {
        await page.getByLabel('Field 1').fill('stage');
        await page.getByLabel('Value 1').fill('nurture');
      },
      'stage = nurture',
    );
    // The yes and no branches are drawn side by side under the condition.
    const branches = page.locator('.flow-node-condition + .flow-branches > .flow-exit');
    expect(await branches.locator('.flow-label').allTextContents()).toEqual(['yes', 'no']);
    const [yes, no] = [await branches.nth(0).boundingBox(), await branches.nth(1).boundingBox()];
    expect(yes!.x + yes!.width).toBeLessThanOrEqual(no!.x);
    expect(Math.abs(yes!.y - no!.y)).toBeLessThan(2);

    // The saved condition opens in the builder as it was built.
    await page.locator('.flow-node', { hasText: 'data.plan equals pro or event.coupon equals VIP' }).click();
    expect(await page.getByLabel('Combine groups').inputValue()).toBe('OR');
    expect(await condition('Group 1, condition 1').getByLabel('Custom field path').inputValue()).toBe('plan');
    expect(await condition('Group 2, condition 1').getByLabel('Context key').inputValue()).toBe('coupon');
    expect(await condition('Group 2, condition 1').getByLabel('Value', { exact: true }).inputValue()).toBe('VIP');
    await checkPage(page, 'automations-condition-edit');

    // A step's settings in the side panel: saved through PATCH.
    // The panel takes the focus as it opens, never later from a field already chosen: read a few frames after
    // someone clicks into Reason the moment the panel shows.
    const focusKept = await page.evaluate<boolean>(`(async () => {
      [...document.querySelectorAll('.flow-node')].find((n) => n.textContent.includes('Pro exit')).click();
      for (let i = 0; i < 5; i++) await Promise.resolve();
      const label = [...document.querySelectorAll('.step-panel label')].find((l) => l.textContent.trim().startsWith('Reason'));
      const reason = document.getElementById(label.htmlFor);
      reason.focus();
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50))));
      return document.activeElement === reason;
    })()`);
    expect(focusKept).toBe(true);
    await page.getByLabel('Reason').fill('Already on the pro plan');
    await page.getByRole('button', { name: 'Save step' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await checkPage(page, 'automations-editor-graph');

    const graph = await graphOf(t, id);
    const step = (type: string) => graph.steps.find((x) => x.type === type)!;
    expect(graph.steps.map((x) => x.type).sort()).toEqual(['CONDITION', 'EXIT', 'SEND_EMAIL', 'UPDATE_CONTACT']);
    expect(step('SEND_EMAIL').config).toEqual({ templateId });
    expect(step('CONDITION').config).toEqual({
      logic: 'OR',
      groups: [
        { filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] },
        { filters: [{ field: 'event.coupon', operator: 'equals', value: 'VIP' }] },
      ],
    });
    expect(step('EXIT')).toMatchObject({ name: 'Pro exit', config: { reason: 'Already on the pro plan' } });
    expect(step('UPDATE_CONTACT').config).toEqual({ data: { stage: 'nurture' } });
    const links = graph.transitions.map((x) => [x.fromStepId, x.toStepId, x.branch]);
    expect(links).toHaveLength(3);
    expect(links).toEqual(
      expect.arrayContaining([
        [step('SEND_EMAIL').id, step('CONDITION').id, null],
        [step('CONDITION').id, step('EXIT').id, 'yes'],
        [step('CONDITION').id, step('UPDATE_CONTACT').id, 'no'],
      ]),
    );

    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('button', { name: 'Disable' }).waitFor();
    expect((await graphOf(t, id)).enabled).toBe(true);
    expect(await page.getByRole('button', { name: /^Add a step/ }).count()).toBe(0);
    await checkPage(page, 'automations-editor-enabled');

    await t.c.track({ email: 'ada@example.test', event: 'signup', data: { plan: 'pro' } }).expect(200);
    await t.c.track({ email: 'bob@example.test', event: 'signup', data: { plan: 'free' } }).expect(200);
    // Cy's coupon reaches only the event's data, the execution's context: the second group is what matches.
    await t.c
      .track({ email: 'cy@example.test', event: 'signup', data: { plan: 'free', coupon: { value: 'VIP', persistent: false } } })
      .expect(200);

    await page.getByRole('link', { name: 'Executions' }).click();
    const row = (email: string) => page.getByRole('row').filter({ hasText: email });
    await row('bob@example.test').getByText('COMPLETED').waitFor({ timeout: 60_000 });
    await row('ada@example.test').getByText('EXITED').waitFor({ timeout: 60_000 });
    await row('cy@example.test').getByText('EXITED').waitFor({ timeout: 60_000 });
    await checkPage(page, 'automations-executions');
    await page.getByLabel('Status').selectOption('COMPLETED');
    await page.getByText('1 execution', { exact: true }).waitFor();
    expect(await row('ada@example.test').count()).toBe(0);
    await checkPage(page, 'automations-executions-completed');

    await row('bob@example.test').getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'Execution for bob@example.test' }).waitFor();
    const history = page.locator('section', { hasText: 'Step history' }).getByRole('row');
    // Step types in words, not their constants.
    await history.filter({ hasText: 'Update the contact' }).getByText('COMPLETED').waitFor();
    expect(await history.filter({ hasText: 'Send an email' }).getByText('COMPLETED').count()).toBe(1);
    expect(await history.filter({ hasText: 'Condition (yes / no)' }).locator('pre').textContent()).toContain('"branch": "no"');
    expect(await history.filter({ hasText: 'SEND_EMAIL' }).count()).toBe(0);
    // The email sent links to its activity, the contact's.
    expect(await history.filter({ hasText: 'Condition (yes / no)' }).getByRole('link').count()).toBe(0);
    await history.filter({ hasText: 'Send an email' }).getByRole('link', { name: "The email's activity" }).click();
    await page.locator('.contact-filter', { hasText: 'Activity of bob@example.test' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Execution for bob@example.test' }).waitFor();
    const execution = (await t.c.get(`/workflows/${id}/executions?status=COMPLETED`).expect(200)).body.data[0];
    expect(execution.stepHistory.map((h: { type: string }) => h.type)).toEqual(['SEND_EMAIL', 'CONDITION', 'UPDATE_CONTACT']);
    expect(await page.getByRole('link', { name: 'Open the run in the Temporal Web UI' }).getAttribute('href')).toBe(
      `${TEMPORAL_UI}/namespaces/default/workflows/${encodeURIComponent(execution.temporalWorkflowId)}`,
    );
    await checkPage(page, 'automations-execution');

    // The graph shows what the three executions came to, per step and per branch (GET /workflows/{id}/stats).
    await page.goto(`${suite.browser.base}#/automations/${id}`);
    const figures = (nodeText: string) => page.locator(`.flow-node:has-text("${nodeText}") + .flow-figures`);
    await figures('Send email').filter({ hasText: '3 entered · 0 waiting · 3 left' }).waitFor();
    expect(await figures('Condition').textContent()).toBe('3 entered · 0 waiting · 3 left');
    expect(await figures('Pro exit').textContent()).toBe('2 entered · 0 waiting · 2 left');
    expect(await figures('Update contact').textContent()).toBe('1 entered · 0 waiting · 1 left');
    const taken = (label: string) => page.locator(`.flow-label:text-is("${label}") + .flow-taken`);
    expect([await taken('yes').textContent(), await taken('no').textContent()]).toEqual(['2 took it', '1 took it']);
    await checkPage(page, 'automations-editor-figures');

    // The simulation of the same graph: a pro contact takes the yes branch, a free one the no branch.
    await page.goto(`${suite.browser.base}#/automations/${id}/simulate`);
    await page.getByLabel("Contact's fields (JSON)").fill('{"plan": "pro"}');
    await page.getByRole('button', { name: 'Run simulation' }).click();
    const timeline = page.getByRole('list', { name: 'Steps reached' });
    await timeline.waitFor();
    expect(await timeline.getByRole('listitem').count()).toBe(3);
    expect(await timeline.getByRole('listitem').nth(0).textContent()).toContain('Email to ada@example.com');
    expect(await timeline.getByRole('listitem').nth(1).textContent()).toContain('branch yes');
    expect(await timeline.getByRole('listitem').nth(2).textContent()).toContain('Pro exit');
    expect(await page.getByRole('status').filter({ hasText: 'Ends' }).textContent()).toContain('EXITED');
    await checkPage(page, 'automations-simulation');

    await page.getByLabel("Contact's fields (JSON)").fill('{"plan": "free"}');
    await page.getByRole('button', { name: 'Run simulation' }).click();
    await page.getByRole('status').filter({ hasText: 'COMPLETED' }).waitFor();
    expect(await timeline.getByRole('listitem').nth(1).textContent()).toContain('branch no');
    expect(await timeline.getByRole('listitem').nth(2).textContent()).toContain('Update the contact');

    await page.getByLabel("Contact's fields (JSON)").fill('{"plan": ');
    await page.getByRole('button', { name: 'Run simulation' }).click();
    await page.getByRole('alert').filter({ hasText: 'contact.data must be a JSON object' }).waitFor();
    await s.close();
  }, 240_000);

  it('builds a RANDOM_SPLIT with its weighted branches side by side, a DELAY until a local time and an email with quiet hours on one, and drops an unused branch', async () => {
    const t = await senderTenant(suite.stack);
    const templateId = await templateOf(t, 'Morning email');
    const created = (await t.c.post('/workflows').send({ name: 'Subject test', eventName: 'signup' }).expect(201)).body;
    const s = await session(t, `/automations/${created.id}`);
    const { page } = s;
    await page.getByRole('heading', { level: 1, name: 'Subject test' }).waitFor();
    await addStep(
      page,
      'Add the first step',
      'RANDOM_SPLIT',
      async () => {
        await page.getByRole('button', { name: 'Add a branch' }).click();
        await page.getByLabel('Weight of A').fill('50');
        await page.getByLabel('What A tests').fill('Short subject');
        await page.getByLabel('Weight of B').fill('30');
        await page.getByLabel('Weight of C').fill('20');
        await checkPage(page, 'automations-random-split');
      },
      'A 50% / B 30% / C 20%',
    );
    const labels = page.locator('.flow-node-random_split + .flow-branches > .flow-exit > .flow-label');
    expect(await labels.allTextContents()).toEqual(['A · 50% Short subject', 'B · 30%', 'C · 20%']);
    await addStep(
      page,
      'Add a step on the B · 30% branch of Random split',
      'EXIT',
      () => page.getByLabel('Reason').fill('Long subject'),
      'Long subject',
    );
    await addStep(
      page,
      'Add a step on the A · 50% Short subject branch of Random split',
      'DELAY',
      async () => {
        await page.getByLabel('Wait for', { exact: true }).fill('2');
        await page.getByLabel('Then until (local time)').fill('09:00');
      },
      '2 days, then until 09:00 local time',
    );
    await addStep(
      page,
      'Add a step after Delay',
      'SEND_EMAIL',
      async () => {
        await page.getByLabel('Template', { exact: true }).selectOption({ label: 'Morning email' });
        await page.getByLabel('Quiet hours from').fill('21:00');
        await page.getByLabel('Quiet hours to').fill('08:00');
        await page.getByLabel("Over the project's frequency cap (MARKETING templates)").selectOption('skip');
      },
      'Template: Morning email, not from 21:00 to 08:00, skipped over the frequency cap',
    );
    const graph = await graphOf(t, created.id);
    const split = graph.steps.find((x) => x.type === 'RANDOM_SPLIT')!;
    expect(graph.steps.find((x) => x.type === 'SEND_EMAIL')!.config).toEqual({
      templateId,
      quietHours: { from: '21:00', to: '08:00' },
      onCap: 'skip',
    });
    expect(graph.steps.find((x) => x.type === 'DELAY')!.config).toEqual({ amount: 2, unit: 'days', until: '09:00' });
    const exit = graph.steps.find((x) => x.type === 'EXIT')!;
    expect(split.config).toEqual({ branches: [{ weight: 50, label: 'Short subject' }, { weight: 30 }, { weight: 20 }] });
    expect(graph.transitions).toEqual(
      expect.arrayContaining([expect.objectContaining({ fromStepId: split.id, toStepId: exit.id, branch: 'B', outcome: null })]),
    );
    expect(graph.transitions.map((x) => x.branch).sort((a, b) => String(a).localeCompare(String(b)))).toEqual(['A', 'B', null]);

    // Down to two branches (C has no step): saved, and drawn again with the shares of two.
    await page.locator('.flow-node', { hasText: 'A 50% / B 30% / C 20%' }).click();
    await page.getByRole('button', { name: 'Remove branch C' }).click();
    expect(await page.getByRole('button', { name: 'Remove branch B' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Save step' }).click();
    await page.locator('.flow-node', { hasText: 'A 63% / B 38%' }).waitFor();
    expect((await graphOf(t, created.id)).steps.find((x) => x.id === split.id)!.config).toEqual({
      branches: [{ weight: 50, label: 'Short subject' }, { weight: 30 }],
    });
    await s.close();
  }, 240_000);

  it('draws a wait with its event and timeout branches, starts an execution by hand, and deletes only once none is active', async () => {
    const t = await senderTenant(suite.stack);
    await addContact(t, 'cy@example.test');
    const created = (await t.c.post('/workflows').send({ name: 'Payment reminder', eventName: 'checkout' }).expect(201)).body;
    const s = await session(t, `/automations/${created.id}`);
    const { page } = s;
    await page.getByRole('heading', { level: 1, name: 'Payment reminder' }).waitFor();

    // From the keyboard: the + is a button, and its form takes the focus.
    await page.getByRole('button', { name: 'Add the first step' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.getByLabel('Step type').evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await addStep(
      page,
      'Add the first step',
      'WAIT_FOR_EVENT',
      async () => {
        await page.getByLabel('Event name').fill('paid');
        await page.getByLabel('Timeout', { exact: true }).fill('2');
        await page.getByLabel('Timeout unit').selectOption('days');
      },
      'paid, at most 2 days',
    );
    expect(await page.locator('.flow-node-wait_for_event + .flow-branches .flow-label').allTextContents()).toEqual(['event', 'timeout']);
    await addStep(
      page,
      'Add a step on the timeout branch of Wait for event',
      'DELAY',
      async () => {
        await page.getByLabel('Wait for', { exact: true }).fill('3');
        await page.getByLabel('Unit', { exact: true }).selectOption('hours');
      },
      '3 hours',
    );
    await checkPage(page, 'automations-editor-wait');
    const graph = await graphOf(t, created.id);
    const wait = graph.steps.find((x) => x.type === 'WAIT_FOR_EVENT')!;
    const delay = graph.steps.find((x) => x.type === 'DELAY')!;
    expect(wait.config).toEqual({ eventName: 'paid', timeout: 2 * 86_400 });
    expect(delay.config).toEqual({ amount: 3, unit: 'hours' });
    expect(graph.transitions).toMatchObject([{ fromStepId: wait.id, toStepId: delay.id, outcome: 'TIMEOUT', branch: null }]);

    // A step inserted between two: the wait's timeout leads to it, and it to the delay; deleting it splices it out.
    await addStep(
      page,
      'Add a step on the timeout branch of Wait for event',
      'WEBHOOK',
      async () => {
        await page.getByLabel('URL').fill('https://hooks.example.test/remind');
        await page.getByLabel('Method').selectOption('PUT');
      },
      'PUT https://hooks.example.test/remind',
    );
    const inserted = await graphOf(t, created.id);
    const hook = inserted.steps.find((x) => x.type === 'WEBHOOK')!;
    expect(hook.config).toEqual({ url: 'https://hooks.example.test/remind', method: 'PUT' });
    const links = inserted.transitions.map((x) => [x.fromStepId, x.toStepId, x.outcome]);
    expect(links).toHaveLength(2);
    expect(links).toEqual(
      expect.arrayContaining([
        [wait.id, hook.id, 'TIMEOUT'],
        [hook.id, delay.id, null],
      ]),
    );
    await page.getByRole('button', { name: 'Delete step' }).click();
    await page.getByRole('button', { name: 'Yes, delete step' }).click();
    await page.locator('.flow-node', { hasText: 'PUT https://hooks.example.test/remind' }).waitFor({ state: 'detached' });
    expect((await graphOf(t, created.id)).transitions).toMatchObject([{ fromStepId: wait.id, toStepId: delay.id, outcome: 'TIMEOUT' }]);

    // Re-entry, a setting of the automation: the panel shows the settings once no step is chosen.
    await page.getByLabel(/Let a contact enter again/).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await t.c.get(`/workflows/${created.id}`).expect(200)).body.allowReentry).toBe(true);

    // The goal, under the settings: an event and how long it counts; emptied, it goes.
    await page.getByLabel('Goal event').fill('purchase');
    await page.getByLabel('Counts within').fill('7');
    await page.getByRole('button', { name: 'Save goal' }).click();
    await page.getByRole('status').filter({ hasText: 'Goal saved.' }).waitFor();
    expect((await t.c.get(`/workflows/${created.id}`).expect(200)).body.goal).toEqual({
      event: 'purchase',
      window: { amount: 7, unit: 'days' },
    });
    await page.getByLabel('Counts within').fill('0');
    await page.getByRole('button', { name: 'Save goal' }).click();
    await page.locator('[aria-invalid="true"][name="goal.window.amount"]').waitFor();
    await page.getByLabel('Goal event').fill('');
    await page.getByRole('button', { name: 'Save goal' }).click();
    await waitFor(
      'the goal to go',
      async () => ((await t.c.get(`/workflows/${created.id}`)).body.goal === null ? true : undefined),
      30_000,
    );

    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('button', { name: 'Disable' }).waitFor();
    await page.getByRole('link', { name: 'Executions' }).click();
    await page.getByText('No executions yet.').waitFor();
    await page.getByLabel("Contact's email").fill('cy@example.test');
    await page.getByLabel('Context (JSON, optional)').fill('{"cart": 42}');
    await page.getByRole('button', { name: 'Start execution' }).click();
    await page.getByRole('heading', { level: 1, name: 'Execution for cy@example.test' }).waitFor();
    await page.locator('.facts').getByText('paid', { exact: true }).waitFor({ timeout: 60_000 });
    await checkPage(page, 'automations-execution-waiting');
    const [execution] = (await t.c.get(`/workflows/${created.id}/executions`).expect(200)).body.data;
    expect(execution).toMatchObject({ status: 'WAITING', context: { cart: 42 } });

    // Deleting while it waits: the API's 409, shown; the automation stays.
    await page.goto(`${suite.browser.base}#/automations`);
    const row = page.getByRole('row').filter({ hasText: 'Payment reminder' });
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    const conflict = (await t.c.delete(`/workflows/${created.id}`).expect(409)).body.error.message as string;
    await page.getByRole('alert').filter({ hasText: conflict }).waitFor();
    await checkPage(page, 'automations-delete-refused');
    await t.c.get(`/workflows/${created.id}`).expect(200);

    await page.goto(`${suite.browser.base}#/automations/${created.id}/executions/${execution.id}`);
    await page.getByRole('button', { name: 'Cancel execution' }).click();
    await page.getByRole('button', { name: 'Yes, cancel execution' }).click();
    await page.locator('.page-header').getByText('CANCELLED').waitFor({ timeout: 30_000 });

    // Re-entry allows a second execution once the first ended; "cancel all" ends it.
    await t.c.post(`/workflows/${created.id}/executions`).send({ email: 'cy@example.test' }).expect(201);
    await page.goto(`${suite.browser.base}#/automations/${created.id}/executions?status=WAITING`);
    await page.getByText('1 execution', { exact: true }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Cancel active executions' }).click();
    await page.getByRole('button', { name: 'Yes, cancel active executions' }).click();
    await page.getByRole('status').filter({ hasText: '1 execution cancelled.' }).waitFor();
    await page.getByText('No waiting executions.').waitFor();
    const statuses = (await t.c.get(`/workflows/${created.id}/executions`).expect(200)).body.data.map((x: { status: string }) => x.status);
    expect(statuses).toEqual(['CANCELLED', 'CANCELLED']);

    await page.goto(`${suite.browser.base}#/automations`);
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('No automations yet').waitFor();
    await t.c.get(`/workflows/${created.id}`).expect(404);
    await s.close();
  }, 240_000);
  it('lists the versions of a live automation and moves a waiting execution of the older one to the latest by a step mapping', async () => {
    const t = await senderTenant(suite.stack);
    const first = await templateOf(t, 'Welcome, first draft');
    const second = await templateOf(t, 'Welcome, rewritten');
    const workflow = (await t.c.post('/workflows').send({ name: 'Welcome series', eventName: 'signup' }).expect(201)).body;
    const delay = (
      await t.c
        .post(`/workflows/${workflow.id}/steps`)
        .send({ type: 'DELAY', config: { amount: 1, unit: 'days' } })
        .expect(201)
    ).body;
    const send = (
      await t.c
        .post(`/workflows/${workflow.id}/steps`)
        .send({ type: 'SEND_EMAIL', config: { templateId: first } })
        .expect(201)
    ).body;
    await t.c.post(`/workflows/${workflow.id}/transitions`).send({ fromStepId: delay.id, toStepId: send.id }).expect(201);
    await t.c.patch(`/workflows/${workflow.id}`).send({ enabled: true }).expect(200);
    await addContact(t, 'dee@example.test');
    const execution = (await t.c.post(`/workflows/${workflow.id}/executions`).send({ email: 'dee@example.test' }).expect(201)).body;
    await t.c
      .patch(`/workflows/${workflow.id}/steps/${send.id}`)
      .send({ config: { templateId: second } })
      .expect(200);

    const s = await session(t, `/automations/${workflow.id}/versions`);
    const { page } = s;
    const older = page.getByRole('region', { name: 'Version 1' });
    await older.getByText('1 waiting').waitFor({ timeout: 60_000 });
    await page.getByRole('region', { name: 'Version 2' }).getByText('Latest').waitFor();
    await older.getByText('Send an email: Template: Welcome, first draft', { exact: true }).waitFor();
    await checkPage(page, 'automations-versions');

    // The DELAY's executions go straight to version 2's email; the mapping is preset to the same step.
    const waitingAt = older.getByLabel('Waiting at Wait for a time: 1 day');
    expect(await waitingAt.inputValue()).toBe(delay.id);
    await waitingAt.selectOption({ label: 'Version 2: Send an email: Template: Welcome, rewritten' });
    await older.getByRole('button', { name: 'Move waiting executions to version 2' }).click();
    await page.getByRole('status').filter({ hasText: '1 execution of version 1 moved to version 2' }).waitFor();
    const done = await waitForExecution(t, workflow.id, execution.id);
    expect(done).toMatchObject({ status: 'COMPLETED', version: 2 });
    expect(done.stepHistory[0]).toMatchObject({ stepId: delay.id, output: { migrated: { version: 2, toStepId: send.id } } });
    await page.goto(`${suite.browser.base}#/automations/${workflow.id}/executions/${execution.id}`);
    await page.getByRole('link', { name: 'Version 2' }).waitFor();
    await s.close();
  }, 240_000);
});
