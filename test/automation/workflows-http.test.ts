import { startStack, type TestStack } from '../helpers/stack';
import { addContact, addStep, allOf, automationState, chain, connect, createWorkflow, enable, filter, startExecution } from './helpers';
import { verifiedDomain, tenant, type Tenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
});
afterAll(() => stack?.close());

/** A request that must fail and leave the project's automations exactly as they were. */
async function refused(
  t: Tenant,
  request: () => Promise<{ status: number; body: { error?: { code?: string } } }>,
  status: number,
  code: string,
) {
  const before = await automationState(stack, t.project.id);
  const res = await request();
  expect([res.status, res.body.error?.code]).toEqual([status, code]);
  expect(await automationState(stack, t.project.id)).toEqual(before);
  return res.body.error as { message: string; errors?: Array<{ field: string; message: string; code: string }> };
}

async function template(t: Tenant): Promise<string> {
  const { domain } = await verifiedDomain(stack, t.project);
  const res = await t.c
    .post('/templates')
    .send({ name: 'Welcome', subject: 'Hi {{ name ?? "there" }}', body: '<p>Hello</p>', from: `hi@${domain}` });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('workflow records', () => {
  it('creates an EVENT workflow, disabled, with a signing secret', async () => {
    const t = await tenant(stack);
    const res = await t.c.post('/workflows').send({ name: 'Welcome series', description: 'New users', eventName: 'signup' }).expect(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      projectId: t.project.id,
      name: 'Welcome series',
      description: 'New users',
      triggerType: 'EVENT',
      triggerConfig: { eventName: 'signup' },
      enabled: false,
      allowReentry: false,
      webhookSecret: expect.stringMatching(/^whsec_[\w-]{43}$/),
      goal: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const [row] = (await automationState(stack, t.project.id)).automations;
    expect(row!.webhook_secret).not.toContain(res.body.webhookSecret);
    expect((await t.c.get(`/workflows/${res.body.id}`).expect(200)).body).toEqual({ ...res.body, steps: [], transitions: [] });
  });

  it.each([
    [{ eventName: 'signup' }, 'name'],
    [{ name: 'x' }, 'eventName'],
    [{ name: ' ', eventName: 'signup' }, 'name'],
    [{ name: 'x', eventName: '' }, 'eventName'],
    [{ name: 'x', eventName: 'e'.repeat(256) }, 'eventName'],
    [{ name: 'x', eventName: 'signup', allowReentry: 'yes' }, 'allowReentry'],
  ])('refuses %p naming %s, storing nothing', async (body, field) => {
    const t = await tenant(stack);
    const error = await refused(t, () => t.c.post('/workflows').send(body), 422, 'VALIDATION_ERROR');
    expect(error.errors?.map((e) => e.field)).toEqual([field]);
  });

  it('lists page by page, newest first, with search and enabled filters', async () => {
    const t = await tenant(stack);
    const a = await createWorkflow(t, { name: 'Onboarding A' });
    const b = await createWorkflow(t, { name: 'Winback' });
    const c = await createWorkflow(t, { name: 'Onboarding C' });
    await addStep(t, b.id, 'EXIT');
    await enable(t, b.id);
    const page = (await t.c.get('/workflows?pageSize=2').expect(200)).body;
    expect(page).toMatchObject({ total: 3, page: 1, pageSize: 2, totalPages: 2 });
    expect(page.data.map((w: { id: string }) => w.id)).toEqual([c.id, b.id]);
    expect((await t.c.get('/workflows?page=2&pageSize=2').expect(200)).body.data.map((w: { id: string }) => w.id)).toEqual([a.id]);
    expect((await t.c.get('/workflows?search=onBOARD').expect(200)).body.data.map((w: { id: string }) => w.id)).toEqual([c.id, a.id]);
    expect((await t.c.get('/workflows?enabled=true').expect(200)).body.data.map((w: { id: string }) => w.id)).toEqual([b.id]);
    const bad = await t.c.get('/workflows?pageSize=101');
    expect([bad.status, bad.body.error.code]).toEqual([400, 'BAD_REQUEST']);
  });

  it('answers 404 WORKFLOW_NOT_FOUND for unknown ids and for other projects', async () => {
    const t = await tenant(stack);
    const other = await tenant(stack);
    const theirs = await createWorkflow(other);
    for (const path of [
      `/workflows/${theirs.id}`,
      '/workflows/00000000-0000-4000-8000-000000000000',
      `/workflows/${theirs.id}/executions`,
    ]) {
      const res = await t.c.get(path);
      expect([path, res.status, res.body.error.code]).toEqual([path, 404, 'WORKFLOW_NOT_FOUND']);
    }
    await refused(other, () => t.c.patch(`/workflows/${theirs.id}`).send({ name: 'mine' }), 404, 'WORKFLOW_NOT_FOUND');
    await refused(other, () => t.c.delete(`/workflows/${theirs.id}`), 404, 'WORKFLOW_NOT_FOUND');
    await refused(other, () => t.c.post(`/workflows/${theirs.id}/steps`).send({ type: 'EXIT' }), 404, 'WORKFLOW_NOT_FOUND');
    expect((await t.c.get('/workflows/not-a-uuid').expect(404)).body.error.code).toBe('WORKFLOW_NOT_FOUND');
  });

  it('updates metadata, trigger type and config, and allowReentry', async () => {
    const t = await tenant(stack);
    const w = await createWorkflow(t);
    const renamed = await t.c.patch(`/workflows/${w.id}`).send({ name: 'Renamed', description: null, allowReentry: true }).expect(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', description: null, allowReentry: true, steps: [], transitions: [] });
    const manual = await t.c.patch(`/workflows/${w.id}`).send({ triggerType: 'MANUAL' }).expect(200);
    expect(manual.body).toMatchObject({ triggerType: 'MANUAL', triggerConfig: {} });
    const error = await refused(t, () => t.c.patch(`/workflows/${w.id}`).send({ triggerType: 'EVENT' }), 400, 'BAD_REQUEST');
    expect(error.errors?.[0]?.field).toBe('triggerConfig.eventName');
    await refused(t, () => t.c.patch(`/workflows/${w.id}`).send({ triggerConfig: { eventName: 'x' } }), 400, 'BAD_REQUEST');
    const event = await t.c
      .patch(`/workflows/${w.id}`)
      .send({ triggerType: 'EVENT', triggerConfig: { eventName: 'contact.unsubscribed' } })
      .expect(200);
    expect(event.body).toMatchObject({ triggerType: 'EVENT', triggerConfig: { eventName: 'contact.unsubscribed' } });
    await refused(t, () => t.c.patch(`/workflows/${w.id}`).send({ triggerType: 'CRON' }), 422, 'VALIDATION_ERROR');
    await refused(t, () => t.c.patch(`/workflows/${w.id}`).send({ name: '' }), 422, 'VALIDATION_ERROR');
  });

  it('sets, replaces and removes a goal; refuses a bad one in the error envelope, changing nothing', async () => {
    const t = await tenant(stack);
    const overTen = { logic: 'AND', groups: [{ filters: [{ field: 'event.amount', operator: 'greaterThan', value: 10 }] }] };
    const goal = { event: 'purchase', filter: overTen, window: { amount: 7, unit: 'days' } };
    const w = await createWorkflow(t, { goal });
    expect(w.goal).toEqual(goal);
    expect((await t.c.get(`/workflows/${w.id}`).expect(200)).body.goal).toEqual(goal);
    const replaced = await t.c
      .patch(`/workflows/${w.id}`)
      .send({ goal: { event: 'upgraded' } })
      .expect(200);
    expect(replaced.body.goal).toEqual({ event: 'upgraded' });
    // Omitted, it stays; null removes it.
    expect((await t.c.patch(`/workflows/${w.id}`).send({ name: 'Renamed' }).expect(200)).body.goal).toEqual({ event: 'upgraded' });
    expect((await t.c.patch(`/workflows/${w.id}`).send({ goal: null }).expect(200)).body.goal).toBeNull();

    const field = (filter: object) => ({ goal: { event: 'purchase', filter } });
    const one = (f: object) => ({ logic: 'AND', groups: [{ filters: [f] }] });
    for (const [body, path] of [
      [field(one({ field: 'data.plan', operator: 'equals', value: 'pro' })), 'goal.filter.groups.0.filters.0.field'],
      [field(one({ field: 'event.purchase', operator: 'triggered' })), 'goal.filter.groups.0.filters.0.field'],
      [field(one({ field: 'event.amount', operator: 'greaterThan' })), 'goal.filter.groups.0.filters.0.value'],
      [field({ logic: 'XOR', groups: [] }), 'goal.filter.logic'],
    ] as const) {
      for (const request of [
        () => t.c.post('/workflows').send({ name: 'G', eventName: 'signup', ...body }),
        () => t.c.patch(`/workflows/${w.id}`).send(body),
      ]) {
        const error = await refused(t, request, 400, 'BAD_REQUEST');
        expect(error.errors).toEqual([{ field: path, message: expect.any(String), code: 'invalid_filter' }]);
      }
    }
    for (const [goalBody, path] of [
      [{ event: '' }, 'goal.event'],
      [{}, 'goal.event'],
      [{ event: 'purchase', window: { amount: 0, unit: 'days' } }, 'goal.window.amount'],
      [{ event: 'purchase', window: { amount: 1.5, unit: 'days' } }, 'goal.window.amount'],
      [{ event: 'purchase', window: { amount: 366, unit: 'days' } }, 'goal.window.amount'],
      [{ event: 'purchase', window: { amount: 2, unit: 'weeks' } }, 'goal.window.unit'],
      ['purchase', 'goal'],
    ] as const) {
      for (const request of [
        () => t.c.post('/workflows').send({ name: 'G', eventName: 'signup', goal: goalBody }),
        () => t.c.patch(`/workflows/${w.id}`).send({ goal: goalBody }),
      ]) {
        const error = await refused(t, request, 422, 'VALIDATION_ERROR');
        expect(error.errors?.map((e) => e.field)).toContain(path);
      }
    }
  });

  it('enables only a single-rooted acyclic graph, naming what is wrong', async () => {
    const t = await tenant(stack);
    const w = await createWorkflow(t);
    let error = await refused(t, () => t.c.patch(`/workflows/${w.id}`).send({ enabled: true }), 400, 'BAD_REQUEST');
    expect(error.message).toMatch(/no steps/);
    const [a, b] = await chain(t, w.id, [['DELAY', { amount: 1, unit: 'days' }], ['EXIT']]);
    const loose = await addStep(t, w.id, 'EXIT');
    error = await refused(t, () => t.c.patch(`/workflows/${w.id}`).send({ enabled: true, name: 'not applied' }), 400, 'BAD_REQUEST');
    expect(error.errors).toEqual([
      { field: 'transitions', code: 'invalid_graph', message: expect.stringContaining(`it has 2: ${a}, ${loose.id}`) },
    ]);
    await t.c.delete(`/workflows/${w.id}/steps/${loose.id}`).expect(204);
    const enabled = (await t.c.patch(`/workflows/${w.id}`).send({ enabled: true }).expect(200)).body;
    expect([enabled.enabled, enabled.steps.map((s: { id: string }) => s.id)]).toEqual([true, [a, b]]);
  });

  it('keeps an enabled workflow runnable: edits that would break it are refused until it is disabled', async () => {
    const t = await tenant(stack);
    const w = await createWorkflow(t);
    const [a, b] = await chain(t, w.id, [['DELAY', { amount: 1, unit: 'days' }], ['DELAY', { amount: 2, unit: 'days' }], ['EXIT']]);
    await enable(t, w.id);
    let error = await refused(t, () => t.c.post(`/workflows/${w.id}/steps`).send({ type: 'EXIT' }), 400, 'BAD_REQUEST');
    expect(error.message).toMatch(/enabled.*disable it/);
    error = await refused(t, () => t.c.delete(`/workflows/${w.id}/steps/${b}`), 400, 'BAD_REQUEST');
    expect(error.errors?.[0]?.message).toMatch(/exactly one entry step/);
    // Edits that keep one entry step and no cycle are fine while enabled.
    await t.c
      .patch(`/workflows/${w.id}/steps/${a}`)
      .send({ config: { amount: 2, unit: 'hours' } })
      .expect(200);
    await t.c.delete(`/workflows/${w.id}/steps/${b}?splice=true`).expect(204);
    await t.c.patch(`/workflows/${w.id}`).send({ enabled: false }).expect(200);
    await t.c.post(`/workflows/${w.id}/steps`).send({ type: 'EXIT' }).expect(201);
  });

  it('deletes a workflow with its steps, and refuses while an execution is active', async () => {
    const t = await tenant(stack);
    const w = await createWorkflow(t);
    await chain(t, w.id, [['DELAY', { amount: 1, unit: 'days' }]]);
    await enable(t, w.id);
    const contactId = await addContact(t, 'ann@example.test');
    // No worker polls this stack's task queue: the execution stays RUNNING.
    await startExecution(t, w.id, { contactId });
    const error = await refused(t, () => t.c.delete(`/workflows/${w.id}`), 409, 'CONFLICT');
    expect(error.message).toMatch(/1 active execution/);
    expect((await t.c.post(`/workflows/${w.id}/executions/cancel-all`).expect(200)).body).toEqual({ cancelled: 1 });
    await t.c.delete(`/workflows/${w.id}`).expect(204);
    expect(await automationState(stack, t.project.id)).toEqual({ automations: [], steps: [], transitions: [], executions: [] });
    await refused(t, () => t.c.delete(`/workflows/${w.id}`), 404, 'WORKFLOW_NOT_FOUND');
  });
});

describe('steps', () => {
  it('adds a step of each type with its config, as saved', async () => {
    const t = await tenant(stack);
    const templateId = await template(t);
    await addContact(t, 'typed@example.test', { plan: 'pro' });
    const w = await createWorkflow(t);
    const configs: Record<string, object> = {
      SEND_EMAIL: { templateId },
      DELAY: { amount: 2, unit: 'days' },
      WAIT_FOR_EVENT: { eventName: 'paid', timeout: 3600 },
      CONDITION: allOf(filter('data.plan', 'equals', 'pro'), filter('event.amount', 'greaterThan', 10)),
      WEBHOOK: { url: 'https://hooks.example.test/in' },
      UPDATE_CONTACT: { data: { stage: 'active' }, subscribed: true },
      EXIT: { reason: 'done' },
    };
    for (const [type, config] of Object.entries(configs)) {
      const res = await t.c
        .post(`/workflows/${w.id}/steps`)
        .send({ type, name: `A ${type}`, config })
        .expect(201);
      const expected = type === 'WEBHOOK' ? { ...config, method: 'POST' } : config;
      expect(res.body).toEqual({
        id: expect.any(String),
        workflowId: w.id,
        type,
        name: `A ${type}`,
        config: expected,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
    }
    const detail = (await t.c.get(`/workflows/${w.id}`).expect(200)).body;
    expect(detail.steps.map((s: { type: string }) => s.type)).toEqual(Object.keys(configs));
  });

  it.each([
    ['an unknown type', { type: 'SMOKE_SIGNAL', config: {} }, 'type'],
    ['a DELAY of 0', { type: 'DELAY', config: { amount: 0, unit: 'days' } }, 'config.amount'],
    ['a DELAY over 365 days', { type: 'DELAY', config: { amount: 366, unit: 'days' } }, 'config.amount'],
    ['a DELAY of 8761 hours', { type: 'DELAY', config: { amount: 8761, unit: 'hours' } }, 'config.amount'],
    ['a DELAY in weeks', { type: 'DELAY', config: { amount: 1, unit: 'weeks' } }, 'config.unit'],
    ['a WAIT_FOR_EVENT without eventName', { type: 'WAIT_FOR_EVENT', config: {} }, 'config.eventName'],
    ['a fractional timeout', { type: 'WAIT_FOR_EVENT', config: { eventName: 'x', timeout: 1.5 } }, 'config.timeout'],
    ['a negative timeout', { type: 'WAIT_FOR_EVENT', config: { eventName: 'x', timeout: -1 } }, 'config.timeout'],
    ['a SEND_EMAIL without templateId', { type: 'SEND_EMAIL', config: {} }, 'config.templateId'],
    [
      'a CUSTOM recipient without email',
      { type: 'SEND_EMAIL', config: { templateId: '00000000-0000-4000-8000-000000000000', recipient: { type: 'CUSTOM' } } },
      'config.recipient.email',
    ],
    ['a WEBHOOK to ftp', { type: 'WEBHOOK', config: { url: 'ftp://example.test/x' } }, 'config.url'],
    ['a WEBHOOK method TRACE', { type: 'WEBHOOK', config: { url: 'https://example.test', method: 'TRACE' } }, 'config.method'],
    [
      'a header with CRLF',
      { type: 'WEBHOOK', config: { url: 'https://example.test', headers: { 'X-A': 'a\r\nInjected: 1' } } },
      'config.headers.X-A',
    ],
    [
      'a forged signature header',
      { type: 'WEBHOOK', config: { url: 'https://example.test', headers: { 'X-Postwire-Signature': 'x' } } },
      'config.headers.X-Postwire-Signature',
    ],
    ['an empty UPDATE_CONTACT', { type: 'UPDATE_CONTACT', config: {} }, 'config'],
    ['an EXIT reason over 500 characters', { type: 'EXIT', config: { reason: 'r'.repeat(501) } }, 'config.reason'],
  ])('refuses %s with 422 naming the field, storing nothing', async (_what, body, field) => {
    const t = await tenant(stack);
    const w = await createWorkflow(t);
    const error = await refused(t, () => t.c.post(`/workflows/${w.id}/steps`).send(body), 422, 'VALIDATION_ERROR');
    expect(error.errors?.map((e) => e.field)).toContain(field);
  });

  it.each([
    ['a template of another project', 'other-template', 'config.templateId'],
    ['an unknown filter operator', allOf(filter('data.plan', 'resembles', 'pro')), 'config.groups.0.filters.0.operator'],
    ['a field outside the grammar', allOf(filter('foo', 'equals', 1)), 'config.groups.0.filters.0.field'],
    ['an empty data path', allOf(filter('data.', 'equals', 1)), 'config.groups.0.filters.0.field'],
    ['an unknown email activity', allOf(filter('email.nope', 'triggered')), 'config.groups.0.filters.0.field'],
    [
      'an operator the value of an unseen field cannot take',
      allOf(filter('data.never', 'greaterThan', 'x')),
      'config.groups.0.filters.0.operator',
    ],
    ['a timed operator without unit', allOf(filter('event.signup', 'triggeredWithin', 3)), 'config.groups.0.filters.0.unit'],
  ])('refuses %s with 400 naming it, storing nothing', async (_what, config, field) => {
    const t = await tenant(stack);
    await addContact(t, 'typed@example.test', { plan: 'pro' });
    const w = await createWorkflow(t);
    const body =
      config === 'other-template'
        ? { type: 'SEND_EMAIL', config: { templateId: await template(await tenant(stack)) } }
        : { type: 'CONDITION', config };
    const error = await refused(t, () => t.c.post(`/workflows/${w.id}/steps`).send(body), 400, 'BAD_REQUEST');
    expect(error.errors?.[0]?.field).toBe(field);
  });

  it('takes a CONDITION on data no contact has yet, on POST and on PATCH (docs/filters.md)', async () => {
    const t = await tenant(stack);
    const w = await createWorkflow(t);
    const unseen = allOf(filter('data.plan', 'equals', 'pro'), filter('data.renewal', 'within', 30, 'days'));
    const step = await addStep(t, w.id, 'CONDITION', unseen);
    expect(step.config).toEqual(unseen);
    const patched = allOf(filter('data.seats', 'greaterThanOrEqual', 5));
    const res = await t.c.patch(`/workflows/${w.id}/steps/${step.id}`).send({ config: patched }).expect(200);
    expect(res.body.config).toEqual(patched);
  });

  it('updates name and config; the type stays and the config is checked for it', async () => {
    const t = await tenant(stack);
    const w = await createWorkflow(t);
    const step = await addStep(t, w.id, 'DELAY', { amount: 1, unit: 'days' });
    const res = await t.c
      .patch(`/workflows/${w.id}/steps/${step.id}`)
      .send({ name: 'Pause', config: { amount: 3, unit: 'hours' } })
      .expect(200);
    expect(res.body).toMatchObject({ type: 'DELAY', name: 'Pause', config: { amount: 3, unit: 'hours' } });
    await refused(t, () => t.c.patch(`/workflows/${w.id}/steps/${step.id}`).send({ config: { eventName: 'x' } }), 422, 'VALIDATION_ERROR');
    await refused(
      t,
      () => t.c.patch(`/workflows/${w.id}/steps/00000000-0000-4000-8000-000000000000`).send({ name: 'x' }),
      404,
      'NOT_FOUND',
    );
  });

  it('keeps a timeout while a TIMEOUT transition needs it', async () => {
    const t = await tenant(stack);
    const w = await createWorkflow(t);
    const wait = await addStep(t, w.id, 'WAIT_FOR_EVENT', { eventName: 'paid', timeout: 60 });
    const exit = await addStep(t, w.id, 'EXIT');
    await connect(t, w.id, wait.id, exit.id, { outcome: 'TIMEOUT' });
    const error = await refused(
      t,
      () => t.c.patch(`/workflows/${w.id}/steps/${wait.id}`).send({ config: { eventName: 'paid' } }),
      400,
      'BAD_REQUEST',
    );
    expect(error.errors?.[0]?.field).toBe('config.timeout');
  });

  it('deletes a step with its transitions, or splices it out of the path', async () => {
    const t = await tenant(stack);
    const w = await createWorkflow(t);
    const [a, b, c] = await chain(t, w.id, [['DELAY', { amount: 1, unit: 'days' }], ['DELAY', { amount: 2, unit: 'days' }], ['EXIT']]);
    await t.c.delete(`/workflows/${w.id}/steps/${b}?splice=true`).expect(204);
    let detail = (await t.c.get(`/workflows/${w.id}`).expect(200)).body;
    expect(detail.steps.map((s: { id: string }) => s.id)).toEqual([a, c]);
    expect(detail.transitions.map((x: { fromStepId: string; toStepId: string }) => [x.fromStepId, x.toStepId])).toEqual([[a, c]]);
    await t.c.delete(`/workflows/${w.id}/steps/${c}`).expect(204);
    detail = (await t.c.get(`/workflows/${w.id}`).expect(200)).body;
    expect([detail.steps.length, detail.transitions]).toEqual([1, []]);
  });

  it('splices a step entered by a branch, keeping the branch; refuses to splice a step with two exits', async () => {
    const t = await tenant(stack);
    await addContact(t, 'typed@example.test', { plan: 'pro' });
    const w = await createWorkflow(t);
    const check = await addStep(t, w.id, 'CONDITION', allOf(filter('data.plan', 'equals', 'pro')));
    const [mid, end] = await chain(t, w.id, [['DELAY', { amount: 1, unit: 'hours' }], ['EXIT']]);
    const other = await addStep(t, w.id, 'EXIT');
    await connect(t, w.id, check.id, mid!, { branch: 'yes' });
    await connect(t, w.id, check.id, other.id, { branch: 'no' });
    const error = await refused(t, () => t.c.delete(`/workflows/${w.id}/steps/${check.id}?splice=true`), 400, 'BAD_REQUEST');
    expect(error.message).toMatch(/2 outgoing transitions cannot be spliced/);
    await t.c.delete(`/workflows/${w.id}/steps/${mid}?splice=true`).expect(204);
    const detail = (await t.c.get(`/workflows/${w.id}`).expect(200)).body;
    expect(detail.transitions).toEqual(
      expect.arrayContaining([expect.objectContaining({ fromStepId: check.id, toStepId: end, branch: 'yes', outcome: null })]),
    );
  });
});

describe('transitions', () => {
  async function graph(t: Tenant) {
    await addContact(t, 'typed@example.test', { plan: 'pro' });
    const w = await createWorkflow(t);
    const id = async (type: string, config: object = {}) => (await addStep(t, w.id, type, config)).id;
    return {
      w,
      delay: await id('DELAY', { amount: 1, unit: 'days' }),
      delay2: await id('DELAY', { amount: 2, unit: 'days' }),
      wait: await id('WAIT_FOR_EVENT', { eventName: 'paid' }),
      check: await id('CONDITION', allOf(filter('data.plan', 'equals', 'pro'))),
      exit: await id('EXIT'),
    };
  }

  it('connects steps: plain, by branch, by outcome (EVENT by default from WAIT_FOR_EVENT)', async () => {
    const t = await tenant(stack);
    const g = await graph(t);
    const plain = await connect(t, g.w.id, g.delay, g.wait);
    expect(plain).toEqual({
      id: expect.any(String),
      workflowId: g.w.id,
      fromStepId: g.delay,
      toStepId: g.wait,
      branch: null,
      outcome: null,
      createdAt: expect.any(String),
    });
    expect(await connect(t, g.w.id, g.wait, g.check)).toMatchObject({ outcome: 'EVENT' });
    expect(await connect(t, g.w.id, g.check, g.exit, { branch: 'yes' })).toMatchObject({ branch: 'yes', outcome: null });
    expect(await connect(t, g.w.id, g.check, g.delay2, { branch: 'no' })).toMatchObject({ branch: 'no' });
  });

  it.each([
    [
      'a branch from a DELAY',
      (g: Awaited<ReturnType<typeof graph>>) => ({ fromStepId: g.delay, toStepId: g.exit, branch: 'yes' }),
      'branch',
    ],
    ['a CONDITION exit without branch', (g: Awaited<ReturnType<typeof graph>>) => ({ fromStepId: g.check, toStepId: g.exit }), 'branch'],
    [
      'an outcome from a CONDITION',
      (g: Awaited<ReturnType<typeof graph>>) => ({ fromStepId: g.check, toStepId: g.exit, branch: 'no', outcome: 'EVENT' }),
      'outcome',
    ],
    [
      'TIMEOUT from a wait without timeout',
      (g: Awaited<ReturnType<typeof graph>>) => ({ fromStepId: g.wait, toStepId: g.exit, outcome: 'TIMEOUT' }),
      'outcome',
    ],
    ['a transition out of EXIT', (g: Awaited<ReturnType<typeof graph>>) => ({ fromStepId: g.exit, toStepId: g.delay }), 'fromStepId'],
    ['a self-loop', (g: Awaited<ReturnType<typeof graph>>) => ({ fromStepId: g.delay, toStepId: g.delay }), 'toStepId'],
    [
      'a step of another workflow',
      (g: Awaited<ReturnType<typeof graph>>) => ({ fromStepId: g.delay, toStepId: '00000000-0000-4000-8000-000000000000' }),
      'toStepId',
    ],
  ])('refuses %s with 400 naming the field', async (_what, body, field) => {
    const t = await tenant(stack);
    const g = await graph(t);
    const error = await refused(t, () => t.c.post(`/workflows/${g.w.id}/transitions`).send(body(g)), 400, 'BAD_REQUEST');
    expect(error.errors).toEqual([expect.objectContaining({ field, code: 'invalid_graph' })]);
  });

  it('leaves a RANDOM_SPLIT by its branches only, and keeps the branches its transitions use', async () => {
    const t = await tenant(stack);
    const w = await createWorkflow(t);
    const split = await addStep(t, w.id, 'RANDOM_SPLIT', { branches: [{ weight: 70, label: 'Short subject' }, { weight: 30 }] });
    expect(split.config).toEqual({ branches: [{ weight: 70, label: 'Short subject' }, { weight: 30 }] });
    const [a, b] = [(await addStep(t, w.id, 'EXIT')).id, (await addStep(t, w.id, 'EXIT')).id];
    expect(await connect(t, w.id, split.id, a, { branch: 'B' })).toMatchObject({ branch: 'B', outcome: null });
    for (const body of [{ branch: 'C' }, { branch: 'yes' }, {}]) {
      const error = await refused(
        t,
        () => t.c.post(`/workflows/${w.id}/transitions`).send({ fromStepId: split.id, toStepId: b, ...body }),
        400,
        'BAD_REQUEST',
      );
      expect(error.errors).toEqual([
        { field: 'branch', code: 'invalid_graph', message: 'A transition leaving a RANDOM_SPLIT step needs one of its branches: "A", "B"' },
      ]);
    }
    const patch = (config: object) => () => t.c.patch(`/workflows/${w.id}/steps/${split.id}`).send({ config });
    const dropped = await refused(t, patch({ branches: [{ weight: 1 }] }), 422, 'VALIDATION_ERROR');
    expect(dropped.errors).toEqual([expect.objectContaining({ field: 'config.branches' })]);
    for (const config of [
      { branches: Array(6).fill({ weight: 1 }) },
      { branches: [{ weight: 0 }, { weight: 1 }] },
      { branches: [{ weight: 1.5 }, { weight: 1 }] },
    ])
      await refused(t, patch(config), 422, 'VALIDATION_ERROR');
    await connect(t, w.id, split.id, b, { branch: 'A' });
    // Three branches keep A and B; going back to two is fine while C is unused.
    await t.c
      .patch(`/workflows/${w.id}/steps/${split.id}`)
      .send({ config: { branches: [{ weight: 1 }, { weight: 1 }, { weight: 1 }] } })
      .expect(200);
    await t.c
      .patch(`/workflows/${w.id}/steps/${split.id}`)
      .send({ config: { branches: [{ weight: 1 }, { weight: 1 }] } })
      .expect(200);
    await t.c
      .patch(`/workflows/${w.id}/steps/${split.id}`)
      .send({ config: { branches: [{ weight: 1 }, { weight: 1 }, { weight: 1 }] } })
      .expect(200);
    const c = (await addStep(t, w.id, 'EXIT')).id;
    await connect(t, w.id, split.id, c, { branch: 'C' });
    const lost = await refused(t, patch({ branches: [{ weight: 1 }, { weight: 1 }] }), 400, 'BAD_REQUEST');
    expect(lost.errors).toEqual([
      expect.objectContaining({
        field: 'config.branches',
        message: 'The step has a transition on branch "C"; delete that transition first',
      }),
    ]);
  });

  it('refuses a second exit of the same kind and a cycle', async () => {
    const t = await tenant(stack);
    const g = await graph(t);
    await connect(t, g.w.id, g.delay, g.delay2);
    await connect(t, g.w.id, g.delay2, g.wait);
    let error = await refused(
      t,
      () => t.c.post(`/workflows/${g.w.id}/transitions`).send({ fromStepId: g.delay, toStepId: g.exit }),
      400,
      'BAD_REQUEST',
    );
    expect(error.message).toMatch(/already has its outgoing transition/);
    error = await refused(
      t,
      () => t.c.post(`/workflows/${g.w.id}/transitions`).send({ fromStepId: g.wait, toStepId: g.delay }),
      400,
      'BAD_REQUEST',
    );
    expect(error.message).toMatch(/cycle/);
    await refused(
      t,
      () => t.c.post(`/workflows/${g.w.id}/transitions`).send({ fromStepId: g.delay, toStepId: 'x' }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('deletes a transition; an unknown one is 404', async () => {
    const t = await tenant(stack);
    const g = await graph(t);
    const tr = await connect(t, g.w.id, g.delay, g.exit);
    await t.c.delete(`/workflows/${g.w.id}/transitions/${tr.id}`).expect(204);
    await refused(t, () => t.c.delete(`/workflows/${g.w.id}/transitions/${tr.id}`), 404, 'NOT_FOUND');
  });
});

describe('manual start, without a worker', () => {
  it('starts for a contact by id or email with a context, storing a snapshot of the definition', async () => {
    const t = await tenant(stack);
    const w = await createWorkflow(t, { eventName: 'never' });
    const [first] = await chain(t, w.id, [['DELAY', { amount: 1, unit: 'days' }], ['EXIT']]);
    await enable(t, w.id);
    const contactId = await addContact(t, 'ann@example.test');
    const res = await t.c
      .post(`/workflows/${w.id}/executions`)
      .send({ email: 'ANN@example.test', context: { coupon: 'X1' } })
      .expect(201);
    expect(res.body).toMatchObject({
      workflowId: w.id,
      contactId,
      contact: { id: contactId, email: 'ann@example.test' },
      status: 'RUNNING',
      currentStepId: first,
      currentStep: { id: first, type: 'DELAY', name: null },
      context: { coupon: 'X1' },
      stepHistory: [],
      entry: 1,
      temporalWorkflowId: `automation:${w.id}:${contactId}`,
    });
    const [row] = (await automationState(stack, t.project.id)).executions;
    expect((row!.definition as { steps: unknown[] }).steps).toHaveLength(2);
    const described = await stack.deps.temporal.client.workflow.getHandle(res.body.temporalWorkflowId).describe();
    expect(described.status.name).toBe('RUNNING');
  });

  it.each([
    [{}, 422, 'VALIDATION_ERROR'],
    [{ contactId: '00000000-0000-4000-8000-000000000000' }, 404, 'CONTACT_NOT_FOUND'],
    [{ email: 'nobody@example.test' }, 404, 'CONTACT_NOT_FOUND'],
    [{ email: 'ann@example.test', contactId: '00000000-0000-4000-8000-000000000000' }, 422, 'VALIDATION_ERROR'],
    [{ email: 'ann@example.test', context: 'x' }, 422, 'VALIDATION_ERROR'],
  ])('refuses %p with %i %s, starting nothing', async (body, status, code) => {
    const t = await tenant(stack);
    const w = await createWorkflow(t);
    await chain(t, w.id, [['EXIT']]);
    await enable(t, w.id);
    await addContact(t, 'ann@example.test');
    await refused(t, () => t.c.post(`/workflows/${w.id}/executions`).send(body), status, code);
  });

  it('refuses a disabled workflow and a contact of another project', async () => {
    const t = await tenant(stack);
    const w = await createWorkflow(t);
    await chain(t, w.id, [['EXIT']]);
    const contactId = await addContact(t, 'ann@example.test');
    const error = await refused(t, () => t.c.post(`/workflows/${w.id}/executions`).send({ contactId }), 400, 'BAD_REQUEST');
    expect(error.message).toMatch(/disabled/);
    await enable(t, w.id);
    const stranger = await addContact(await tenant(stack), 'ann@example.test');
    await refused(t, () => t.c.post(`/workflows/${w.id}/executions`).send({ contactId: stranger }), 404, 'CONTACT_NOT_FOUND');
  });

  it('lists executions by status, page by page; cancels one and refuses to cancel it twice', async () => {
    const t = await tenant(stack);
    const w = await createWorkflow(t, { allowReentry: true });
    await chain(t, w.id, [['DELAY', { amount: 1, unit: 'days' }]]);
    await enable(t, w.id);
    const ids: string[] = [];
    for (const email of ['a@example.test', 'b@example.test', 'c@example.test']) {
      ids.push((await startExecution(t, w.id, { contactId: await addContact(t, email) })).id);
    }
    const page = (await t.c.get(`/workflows/${w.id}/executions?pageSize=2`).expect(200)).body;
    expect(page).toMatchObject({ total: 3, page: 1, pageSize: 2, totalPages: 2 });
    expect(page.data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);

    const cancelled = await t.c.delete(`/workflows/${w.id}/executions/${ids[0]}`).expect(200);
    expect(cancelled.body).toMatchObject({ id: ids[0], status: 'CANCELLED', completedAt: expect.any(String) });
    const handle = stack.deps.temporal.client.workflow.getHandle(cancelled.body.temporalWorkflowId);
    // Nothing runs the workflow here, so it holds the request; it is no longer left to run on its own.
    expect((await handle.fetchHistory()).events?.some((e) => e.workflowExecutionCancelRequestedEventAttributes)).toBe(true);
    await refused(t, () => t.c.delete(`/workflows/${w.id}/executions/${ids[0]}`), 409, 'CONFLICT');

    const running = (await t.c.get(`/workflows/${w.id}/executions?status=RUNNING`).expect(200)).body;
    expect(running.data.map((e: { id: string }) => e.id).sort()).toEqual([ids[1], ids[2]].sort());
    expect((await t.c.get(`/workflows/${w.id}/executions?status=CANCELLED`).expect(200)).body.total).toBe(1);
    const bad = await t.c.get(`/workflows/${w.id}/executions?status=DONE`);
    expect([bad.status, bad.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    await refused(t, () => t.c.get(`/workflows/${w.id}/executions/00000000-0000-4000-8000-000000000000`), 404, 'NOT_FOUND');

    expect((await t.c.post(`/workflows/${w.id}/executions/cancel-all`).expect(200)).body).toEqual({ cancelled: 2 });
    expect((await t.c.get(`/workflows/${w.id}/executions?status=CANCELLED`).expect(200)).body.total).toBe(3);
    expect((await t.c.post(`/workflows/${w.id}/executions/cancel-all`).expect(200)).body).toEqual({ cancelled: 0 });
  });
});

describe('usage', () => {
  it('reports the workflows that send a template, and refuses to delete the template meanwhile', async () => {
    const t = await tenant(stack);
    const templateId = await template(t);
    const w = await createWorkflow(t);
    await addStep(t, w.id, 'SEND_EMAIL', { templateId });
    expect((await t.c.get(`/templates/${templateId}/usage`).expect(200)).body).toEqual({
      campaigns: [],
      workflows: [{ id: w.id, name: 'Welcome series' }],
      forms: [],
    });
    expect((await t.c.delete(`/templates/${templateId}`)).status).toBe(409);
  });

  it('reports workflows that reference an event (trigger, WAIT_FOR_EVENT, CONDITION) or a field', async () => {
    const t = await tenant(stack);
    await addContact(t, 'typed@example.test', { plan: 'pro' });
    await createWorkflow(t, { name: 'A', eventName: 'paid' });
    const byWait = await createWorkflow(t, { name: 'B', eventName: 'other' });
    await addStep(t, byWait.id, 'WAIT_FOR_EVENT', { eventName: 'paid' });
    const byCondition = await createWorkflow(t, { name: 'C', eventName: 'other' });
    await addStep(t, byCondition.id, 'CONDITION', allOf(filter('event.paid', 'triggered'), filter('data.plan', 'equals', 'pro')));
    const byUpdate = await createWorkflow(t, { name: 'D', eventName: 'other' });
    await addStep(t, byUpdate.id, 'UPDATE_CONTACT', { data: { plan: 'free' } });
    await createWorkflow(t, { name: 'E', eventName: 'other' });
    const names = (body: { workflows: Array<{ name: string }> }) => body.workflows.map((w) => w.name).sort();
    expect(names((await t.c.get('/events/paid/usage').expect(200)).body)).toEqual(['A', 'B', 'C']);
    expect(names((await t.c.get('/contacts/fields/data.plan/usage').expect(200)).body)).toEqual(['C', 'D']);
  });
});

describe('GET /workflows/fields', () => {
  it('lists contact fields with types, email activity, event names and event data keys', async () => {
    const t = await tenant(stack);
    await addContact(t, 'ann@example.test', { plan: 'pro', seats: 3 });
    await t.c.track({ email: 'ann@example.test', event: 'purchase', data: { amount: 42, currency: 'EUR' } }).expect(200);
    const { fields } = (await t.c.get('/workflows/fields').expect(200)).body;
    expect(fields).toEqual(
      expect.arrayContaining([
        { field: 'email', type: 'string', category: 'contact', isCustom: false },
        { field: 'data.plan', type: 'string', category: 'contact', isCustom: true },
        { field: 'data.seats', type: 'number', category: 'contact', isCustom: true },
        { field: 'email.opened', type: 'event', category: 'emailActivity', isCustom: false },
        { field: 'event.purchase', type: 'event', category: 'event', isCustom: true },
        { field: 'event.amount', type: 'number', category: 'eventData', isCustom: true, eventNames: ['purchase'] },
        { field: 'event.currency', type: 'string', category: 'eventData', isCustom: true, eventNames: ['purchase'] },
      ]),
    );
    const other = await tenant(stack);
    const theirs = (await other.c.get('/workflows/fields').expect(200)).body.fields.map((f: { field: string }) => f.field);
    expect(theirs).not.toContain('event.purchase');
    expect(theirs).not.toContain('data.plan');
  });
});
