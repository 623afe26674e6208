import { startStack, type TestStack } from '../helpers/stack';
import { seedContact, seedEvents, sql } from '../helpers/seed';
import { setFrequencyCap, tenant, verifiedDomain, type Tenant } from '../helpers/tenants';
import { addStep, chain, connect, createWorkflow } from './helpers';
import { splitBranch } from '../../src/modules/automations/run/random-split';

/**
 * POST /workflows/{id}/simulate (docs/simulation.md) through HTTP against the real stack: the automation
 * workflow itself on the time-skipping test server, with simulated activities.
 */

let stack: TestStack;
beforeAll(async () => {
  // Without the per-minute request counter (a table the request itself would write), every table can be compared whole.
  stack = await startStack({ env: { API_RATE_LIMIT_PER_MINUTE: '0' } });
});
afterAll(() => stack?.close());

type Simulation = {
  status: string;
  endedAfter: string | null;
  steps: Array<Record<string, unknown> & { stepId: string }>;
  contact: { subscribed: boolean; data: Record<string, unknown> };
  simulatedFor: string;
  wallMs: number;
  passed?: boolean;
  failures?: unknown[];
};

const simulate = (t: Tenant, workflowId: string, body: object) => t.c.post(`/workflows/${workflowId}/simulate`).send(body);

async function simulated(t: Tenant, workflowId: string, body: object): Promise<Simulation> {
  const res = await simulate(t, workflowId, body);
  if (res.status !== 200) throw new Error(`simulate answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Simulation;
}

/** Each table's row count and a digest of its rows: a simulation must leave every one as it was. */
async function everyTable(): Promise<Record<string, unknown>> {
  const tables = await sql<{ name: string }>(
    stack,
    `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const state: Record<string, unknown> = {};
  for (const { name } of tables) {
    const [row] = await sql<{ n: string; digest: string }>(
      stack,
      `select count(*)::text as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${name}" t`,
    );
    state[name] = row;
  }
  return state;
}

async function template(t: Tenant): Promise<{ id: string; from: string }> {
  const { domain } = await verifiedDomain(stack, t.project);
  const res = await t.c
    .post('/templates')
    .send({ name: 'Welcome', subject: 'Hi {{ name ?? "there" }}', body: '<p>Plan {{ plan }} for {{ email }}</p>', from: `hi@${domain}` });
  expect(res.status).toBe(201);
  return { id: res.body.id, from: `hi@${domain}` };
}

const planIs = (value: string) => ({ logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value }] }] });
const HOOK = 'https://hooks.example.com/postwire';

describe('a RANDOM_SPLIT', () => {
  it('takes the branch a stored contact will take, and the same one for the same sample contact every time', async () => {
    const t = await tenant(stack);
    const w = await createWorkflow(t, { name: 'Subject test' });
    const config = { branches: [{ weight: 1 }, { weight: 1 }, { weight: 1 }] };
    const split = (await addStep(t, w.id, 'RANDOM_SPLIT', config)).id;
    for (const branch of ['A', 'B', 'C'])
      await connect(t, w.id, split, (await addStep(t, w.id, 'EXIT', { reason: branch })).id, { branch });
    const branchOf = async (body: object) => {
      const sim = await simulated(t, w.id, body);
      expect(sim.steps[0]).toMatchObject({ stepId: split, type: 'RANDOM_SPLIT' });
      expect(sim.steps[1]).toMatchObject({ type: 'EXIT' });
      return sim.steps[0]!.branch;
    };
    for (let i = 0; i < 3; i++) {
      const { id: contactId } = await seedContact(stack, t.project.id, `split${i}@example.test`);
      expect(await branchOf({ contactId })).toBe(splitBranch(config, split, contactId));
    }
    const sample = { contact: { email: 'Sam@Example.com' } };
    const first = await branchOf(sample);
    expect(first).toBe(splitBranch(config, split, 'sam@example.com'));
    expect(await branchOf(sample)).toBe(first);
  });
});

describe('local times: a DELAY until one, quiet hours', () => {
  /** An ISO duration of the answer (`PT13H5M2S`, `P1DT2H`) in seconds. */
  const seconds = (iso: string) => {
    const [, d, h, m, s] = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(iso)!;
    return Number(d ?? 0) * 86_400 + Number(h ?? 0) * 3_600 + Number(m ?? 0) * 60 + Number(s ?? 0);
  };

  it("waits for the time in the sample contact's zone, else the project's (UTC)", async () => {
    const t = await tenant(stack);
    const w = await createWorkflow(t, { name: 'Morning' });
    const definition = { steps: [{ id: 'morning', type: 'DELAY', config: { until: '09:00' } }], transitions: [] };
    const waited = async (data: object) => {
      const sim = await simulated(t, w.id, { definition, contact: { data } });
      expect(sim.steps[0]).toMatchObject({ stepId: 'morning', status: 'COMPLETED', startedAfter: 'PT0S' });
      return seconds(sim.steps[0]!.endedAfter as string);
    };
    const [tokyo, kolkata, utc] = [await waited({ timezone: 'Asia/Tokyo' }), await waited({ timezone: 'Asia/Kolkata' }), await waited({})];
    for (const wait of [tokyo, kolkata, utc]) expect(wait).toBeLessThanOrEqual(86_400);
    // 09:00 in Kolkata is 12:30 in Tokyo, 09:00 UTC 18:00 there (neither has DST); seconds pass between the simulations.
    const after = (a: number, b: number) => (((a - b) % 86_400) + 86_400) % 86_400;
    expect(Math.abs(after(kolkata, tokyo) - 3.5 * 3_600)).toBeLessThan(120);
    expect(Math.abs(after(utc, tokyo) - 9 * 3_600)).toBeLessThan(120);
  });

  it('holds a SEND_EMAIL in its quiet hours until they end, and not outside them', async () => {
    const t = await tenant(stack);
    const tpl = await template(t);
    const w = await createWorkflow(t, { name: 'Quiet' });
    // From an hour ago to two hours ahead, in UTC (the simulation's clock starts at the real time); Tokyo is outside.
    const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    const quietHours = { from: hhmm(Date.now() - 3_600_000), to: hhmm(Date.now() + 7_200_000) };
    const definition = { steps: [{ id: 'mail', type: 'SEND_EMAIL', config: { templateId: tpl.id, quietHours } }], transitions: [] };
    const sent = async (data: object) => (await simulated(t, w.id, { definition, contact: { data } })).steps[0]!;
    const held = await sent({ timezone: 'UTC' });
    expect(held).toMatchObject({ status: 'COMPLETED', startedAfter: 'PT0S', email: expect.objectContaining({ subject: 'Hi there' }) });
    expect(seconds(held.endedAfter as string)).toBeGreaterThan(118 * 60);
    expect(seconds(held.endedAfter as string)).toBeLessThanOrEqual(120 * 60);
    expect(await sent({ timezone: 'Asia/Tokyo' })).toMatchObject({ status: 'COMPLETED', endedAfter: 'PT0S' });
  });

  it("holds a marketing SEND_EMAIL over the project's frequency cap until the window allows it, or skips it", async () => {
    const t = await tenant(stack);
    const tpl = await template(t);
    await setFrequencyCap(stack, t, { maxEmails: 2, windowDays: 7 });
    const w = await createWorkflow(t, { name: 'Capped' });
    const mail = (id: string, config: object = {}) => ({ id, type: 'SEND_EMAIL', config: { templateId: tpl.id, ...config } });
    const definition = (onCap: string) => ({
      steps: [mail('one'), { id: 'pause', type: 'DELAY', config: { amount: 2, unit: 'days' } }, mail('two'), mail('three', { onCap })],
      transitions: [
        { fromStepId: 'one', toStepId: 'pause' },
        { fromStepId: 'pause', toStepId: 'two' },
        { fromStepId: 'two', toStepId: 'three' },
      ],
    });
    const waited = await simulated(t, w.id, { definition: definition('wait') });
    expect(waited.status).toBe('COMPLETED');
    // The first email leaves the window 7 days after it was sent: 5 days after the third step began.
    expect(waited.steps[3]).toMatchObject({ stepId: 'three', status: 'COMPLETED', startedAfter: 'P2D', email: expect.any(Object) });
    // (The test server's clock moves while a task runs: a second or so on a loaded machine.)
    expect(seconds(waited.steps[3]!.endedAfter as string)).toBeGreaterThanOrEqual(7 * 86_400);
    expect(seconds(waited.steps[3]!.endedAfter as string)).toBeLessThan(7 * 86_400 + 120);
    const skipped = await simulated(t, w.id, { definition: definition('skip') });
    expect(skipped.steps[3]).toMatchObject({ stepId: 'three', status: 'COMPLETED', endedAfter: 'P2D', skipped: 'FREQUENCY_CAPPED' });
    expect(skipped.steps[3]!.email).toBeUndefined();
  });
});

describe('a saved workflow with every step type', () => {
  let t: Tenant;
  let workflowId: string;
  let ids: Record<string, string>;
  let tpl: { id: string; from: string };
  beforeAll(async () => {
    t = await tenant(stack);
    tpl = await template(t);
    const w = await createWorkflow(t, { name: 'Onboarding' });
    workflowId = w.id;
    const [send, wait, cond] = await chain(t, workflowId, [
      ['SEND_EMAIL', { templateId: tpl.id }],
      ['WAIT_FOR_EVENT', { eventName: 'paid', timeout: 3 * 86_400 }],
      ['CONDITION', planIs('pro')],
    ]);
    const u = (
      await addStep(t, workflowId, 'UPDATE_CONTACT', {
        data: { stage: 'customer', note: { value: 'vip', persistent: false } },
        subscribed: false,
      })
    ).id;
    const h = (await addStep(t, workflowId, 'WEBHOOK', { url: HOOK, headers: { 'x-team': 'growth' } })).id;
    const d = (await addStep(t, workflowId, 'DELAY', { amount: 30, unit: 'days' })).id;
    const x = (await addStep(t, workflowId, 'EXIT', { reason: 'done' })).id;
    const sorry = (await addStep(t, workflowId, 'EXIT', { reason: 'not pro' })).id;
    await connect(t, workflowId, cond!, u, { branch: 'yes' });
    await connect(t, workflowId, cond!, sorry, { branch: 'no' });
    await connect(t, workflowId, u, h);
    await connect(t, workflowId, h, d);
    await connect(t, workflowId, d, x);
    ids = { send: send!, wait: wait!, cond: cond!, update: u, hook: h, delay: d, exit: x, sorry };
  });

  const scenario = {
    contact: { email: 'ada@example.com', data: { plan: 'pro' } },
    trigger: { event: 'signup', data: { name: 'Ada' } },
    events: [{ after: '2 days', event: 'paid', data: { amount: 30 } }],
  };

  it('answers the timeline of every step, and changes no row of any table', async () => {
    const before = await everyTable();
    const sim = await simulated(t, workflowId, scenario);
    expect(await everyTable()).toEqual(before);

    expect(sim).toMatchObject({ status: 'EXITED', endedAfter: 'P32D', simulatedFor: 'P32D' });
    expect(sim.wallMs).toEqual(expect.any(Number));
    expect(sim.steps.map((s) => [s.stepId, s.type, s.status, s.startedAfter, s.endedAfter])).toEqual([
      [ids.send, 'SEND_EMAIL', 'COMPLETED', 'PT0S', 'PT0S'],
      [ids.wait, 'WAIT_FOR_EVENT', 'COMPLETED', 'PT0S', 'P2D'],
      [ids.cond, 'CONDITION', 'COMPLETED', 'P2D', 'P2D'],
      [ids.update, 'UPDATE_CONTACT', 'COMPLETED', 'P2D', 'P2D'],
      [ids.hook, 'WEBHOOK', 'COMPLETED', 'P2D', 'P2D'],
      [ids.delay, 'DELAY', 'COMPLETED', 'P2D', 'P32D'],
      [ids.exit, 'EXIT', 'COMPLETED', 'P32D', 'P32D'],
    ]);
    const [send, wait, cond, update, hook] = sim.steps;
    expect(send!.email).toEqual({
      to: 'ada@example.com',
      from: tpl.from,
      subject: 'Hi Ada',
      html: '<p>Plan pro for ada@example.com</p>',
      // Made from the HTML, as for every email that has no text of its own.
      text: 'Plan pro for ada@example.com',
    });
    expect(wait!.outcome).toBe('EVENT');
    expect(cond!.branch).toBe('yes');
    expect(update!.contact).toEqual({ subscribed: false, data: { plan: 'pro', stage: 'customer' } });
    expect(hook!.webhook).toMatchObject({
      method: 'POST',
      url: HOOK,
      headers: {
        'x-team': 'growth',
        'content-type': 'application/json',
        'x-postwire-signature': expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
      },
      body: {
        type: 'workflow.webhook',
        workflow: { id: workflowId, name: 'Onboarding' },
        contact: { email: 'ada@example.com', subscribed: false, data: { plan: 'pro', stage: 'customer' } },
        // The trigger's data, the awaited event's and UPDATE_CONTACT's non-persistent value.
        context: { name: 'Ada', amount: 30, note: 'vip' },
      },
      response: { status: 200, body: null },
    });
    expect(sim.contact).toEqual({ subscribed: false, data: { plan: 'pro', stage: 'customer' } });
  });

  it('takes the TIMEOUT outcome when the event comes too late, and the no branch', async () => {
    const sim = await simulated(t, workflowId, {
      contact: { data: { plan: 'free' } },
      events: [{ after: '4 days', event: 'paid' }],
    });
    expect(sim.steps.map((s) => [s.stepId, s.startedAfter, s.endedAfter, s.outcome ?? s.branch ?? null])).toEqual([
      [ids.send, 'PT0S', 'PT0S', null],
      [ids.wait, 'PT0S', 'P3D', 'TIMEOUT'],
    ]);
    // No TIMEOUT transition: the execution completes there.
    expect(sim).toMatchObject({ status: 'COMPLETED', endedAfter: 'P3D' });
    expect(sim.steps[0]!.email).toMatchObject({ to: 'contact@example.com', subject: 'Hi there' });
  });

  it('takes the no branch to its EXIT', async () => {
    const sim = await simulated(t, workflowId, { contact: { data: { plan: 'free' } }, events: [{ after: '1 hours', event: 'paid' }] });
    expect(sim.steps.map((s) => [s.stepId, s.branch ?? null])).toEqual([
      [ids.send, null],
      [ids.wait, null],
      [ids.cond, 'no'],
      [ids.sorry, null],
    ]);
    expect(sim).toMatchObject({ status: 'EXITED', endedAfter: 'PT1H' });
  });

  it('fails at a WEBHOOK step answered with an error, as the real step ends', async () => {
    const sim = await simulated(t, workflowId, { ...scenario, webhookResponses: { [ids.hook]: { status: 503, body: { error: 'down' } } } });
    expect(sim.status).toBe('FAILED');
    expect(sim.endedAfter).toBe('P2D');
    const last = sim.steps[sim.steps.length - 1]!;
    expect(last).toMatchObject({ stepId: ids.hook, status: 'FAILED', error: expect.stringContaining('503') });
    expect(last.webhook).toMatchObject({ response: { status: 503, body: { error: 'down' } } });
  });

  it('stops a waiting run at until', async () => {
    const sim = await simulated(t, workflowId, { ...scenario, until: '10 days' });
    expect(sim).toMatchObject({ status: 'WAITING', endedAfter: null, simulatedFor: 'P10D' });
    expect(sim.steps.map((s) => [s.stepId, s.status, s.endedAfter])).toEqual([
      [ids.send, 'COMPLETED', 'PT0S'],
      [ids.wait, 'COMPLETED', 'P2D'],
      [ids.cond, 'COMPLETED', 'P2D'],
      [ids.update, 'COMPLETED', 'P2D'],
      [ids.hook, 'COMPLETED', 'P2D'],
      [ids.delay, 'WAITING', null],
    ]);
  });

  it('answers passed and failures for expect', async () => {
    const pass = await simulated(t, workflowId, {
      ...scenario,
      expect: [
        { stepId: ids.cond, reached: true, branch: 'yes' },
        { stepId: ids.wait, outcome: 'EVENT', status: 'COMPLETED' },
        { stepId: ids.sorry, reached: false },
      ],
    });
    expect(pass).toMatchObject({ passed: true, failures: [] });
    const fail = await simulated(t, workflowId, {
      ...scenario,
      expect: [
        { stepId: ids.cond, branch: 'no' },
        { stepId: ids.sorry, reached: true },
        { stepId: ids.exit, status: 'COMPLETED' },
      ],
    });
    expect(fail).toMatchObject({
      passed: false,
      failures: [
        { stepId: ids.cond, field: 'branch', expected: 'no', actual: 'yes' },
        { stepId: ids.sorry, field: 'reached', expected: true, actual: false },
      ],
    });
  });

  it('never shows a simulation among the executions', async () => {
    await simulated(t, workflowId, scenario);
    expect((await t.c.get(`/workflows/${workflowId}/executions`).expect(200)).body).toMatchObject({ data: [], total: 0 });
  });
});

describe('a stored contact', () => {
  it('counts its stored events and data, and leaves it unchanged', async () => {
    const t = await tenant(stack);
    const contact = await seedContact(stack, t.project.id);
    await t.c
      .patch(`/contacts/${contact.id}`)
      .send({ data: { plan: 'pro' } })
      .expect(200);
    await seedEvents(stack, t.project.id, contact.id, [{ name: 'visited', at: new Date(Date.now() - 3_600_000) }]);
    const w = await createWorkflow(t);
    const definition = {
      steps: [
        {
          id: 'recent',
          type: 'CONDITION',
          config: {
            logic: 'AND',
            groups: [
              {
                filters: [
                  { field: 'event.visited', operator: 'triggeredWithin', value: 1, unit: 'days' },
                  { field: 'data.plan', operator: 'equals', value: 'pro' },
                ],
              },
            ],
          },
        },
        { id: 'later', type: 'DELAY', config: { amount: 2, unit: 'days' } },
        {
          id: 'again',
          type: 'CONDITION',
          config: {
            logic: 'AND',
            groups: [{ filters: [{ field: 'event.visited', operator: 'triggeredWithin', value: 1, unit: 'days' }] }],
          },
        },
        { id: 'mark', type: 'UPDATE_CONTACT', config: { data: { plan: null, seen: true } } },
      ],
      transitions: [
        { fromStepId: 'recent', toStepId: 'later', branch: 'yes' },
        { fromStepId: 'later', toStepId: 'again' },
        { fromStepId: 'again', toStepId: 'mark', branch: 'no' },
      ],
    };
    const before = await everyTable();
    const sim = await simulated(t, w.id, { contactId: contact.id, definition });
    expect(await everyTable()).toEqual(before);
    // Two days on, the stored visit is older than a day: the second CONDITION reads the simulation's clock.
    expect(sim.steps.map((s) => [s.stepId, s.branch ?? null])).toEqual([
      ['recent', 'yes'],
      ['later', null],
      ['again', 'no'],
      ['mark', null],
    ]);
    expect(sim.contact).toEqual({ subscribed: true, data: { seen: true } });
  });
});

describe('service events of the simulated steps', () => {
  it('lets a later CONDITION see the email.sent and contact.unsubscribed its steps would record', async () => {
    const t = await tenant(stack);
    const tpl = await template(t);
    const w = await createWorkflow(t);
    const triggered = (field: string) => ({ logic: 'AND', groups: [{ filters: [{ field, operator: 'triggered' }] }] });
    const definition = {
      steps: [
        { id: 'sentYet', type: 'CONDITION', config: triggered('email.sent') },
        { id: 'send', type: 'SEND_EMAIL', config: { templateId: tpl.id } },
        { id: 'sent', type: 'CONDITION', config: triggered('email.sent') },
        { id: 'optOut', type: 'UPDATE_CONTACT', config: { subscribed: false } },
        { id: 'left', type: 'CONDITION', config: triggered('event.contact.unsubscribed') },
      ],
      transitions: [
        { fromStepId: 'sentYet', toStepId: 'send', branch: 'no' },
        { fromStepId: 'send', toStepId: 'sent' },
        { fromStepId: 'sent', toStepId: 'optOut', branch: 'yes' },
        { fromStepId: 'optOut', toStepId: 'left' },
      ],
    };
    const sim = await simulated(t, w.id, { definition });
    expect(sim.steps.map((s) => [s.stepId, s.branch ?? null])).toEqual([
      ['sentYet', 'no'],
      ['send', null],
      ['sent', 'yes'],
      ['optOut', null],
      ['left', 'yes'],
    ]);
  });
});

describe('an unsaved definition', () => {
  it('simulates a draft of a workflow without steps, with a TIMEOUT transition', async () => {
    const t = await tenant(stack);
    const w = await createWorkflow(t);
    const sim = await simulated(t, w.id, {
      definition: {
        steps: [
          { id: 'wait', type: 'WAIT_FOR_EVENT', config: { eventName: 'paid', timeout: 86_400 } },
          { id: 'nudge', type: 'DELAY', config: { amount: 90, unit: 'minutes' } },
          { id: 'bye', type: 'EXIT', name: 'Give up', config: {} },
        ],
        transitions: [
          { fromStepId: 'wait', toStepId: 'nudge', outcome: 'TIMEOUT' },
          { fromStepId: 'nudge', toStepId: 'bye' },
        ],
      },
      expect: [
        { stepId: 'wait', outcome: 'TIMEOUT' },
        { stepId: 'bye', reached: true },
      ],
    });
    expect(sim).toMatchObject({ status: 'EXITED', endedAfter: 'P1DT1H30M', passed: true });
    expect(sim.steps.map((s) => [s.stepId, s.name, s.startedAfter])).toEqual([
      ['wait', null, 'PT0S'],
      ['nudge', null, 'P1D'],
      ['bye', 'Give up', 'P1DT1H30M'],
    ]);
    expect((await t.c.get(`/workflows/${w.id}`).expect(200)).body.steps).toEqual([]);
  });
});

describe('a goal', () => {
  it('ends the run CONVERTED when an event reaches it, at the event, and not for one its filter refuses', async () => {
    const t = await tenant(stack);
    const tpl = await template(t);
    const overTen = { logic: 'AND', groups: [{ filters: [{ field: 'event.amount', operator: 'greaterThan', value: 10 }] }] };
    const w = await createWorkflow(t, { name: 'Cart', goal: { event: 'purchase', filter: overTen } });
    const ids = await chain(t, w.id, [
      ['DELAY', { amount: 2, unit: 'days' }],
      ['SEND_EMAIL', { templateId: tpl.id }],
    ]);
    const before = await everyTable();
    const bought = await simulated(t, w.id, {
      trigger: { event: 'signup' },
      events: [
        { after: '1 hours', event: 'purchase', data: { amount: 5 } },
        { after: '1 days', event: 'purchase', data: { amount: 25 } },
      ],
    });
    expect(bought).toMatchObject({ status: 'CONVERTED', endedAfter: 'P1D', simulatedFor: 'P1D' });
    expect(bought.steps).toEqual([
      expect.objectContaining({ stepId: ids[0], type: 'DELAY', status: 'CONVERTED', startedAfter: 'PT0S', endedAfter: 'P1D' }),
    ]);
    // Only the small purchase: the email goes after the DELAY. A draft without the goal (null) sends it too.
    const small = await simulated(t, w.id, { events: [{ after: '1 hours', event: 'purchase', data: { amount: 5 } }] });
    expect(small).toMatchObject({ status: 'COMPLETED', endedAfter: 'P2D' });
    expect(small.steps.map((s) => [s.type, s.status])).toEqual([
      ['DELAY', 'COMPLETED'],
      ['SEND_EMAIL', 'COMPLETED'],
    ]);
    const draft = {
      steps: [
        { id: 'wait', type: 'DELAY', config: { amount: 2, unit: 'days' } },
        { id: 'mail', type: 'SEND_EMAIL', config: { templateId: tpl.id } },
      ],
      transitions: [{ fromStepId: 'wait', toStepId: 'mail' }],
    };
    const big = [{ after: '1 days', event: 'purchase', data: { amount: 25 } }];
    expect((await simulated(t, w.id, { definition: draft, events: big })).status).toBe('CONVERTED');
    expect((await simulated(t, w.id, { definition: { ...draft, goal: null }, events: big })).status).toBe('COMPLETED');
    const byDraftGoal = await simulated(t, w.id, {
      definition: { ...draft, goal: { event: 'upgraded', window: { amount: 1, unit: 'hours' } } },
      events: [{ after: '30 minutes', event: 'upgraded' }],
    });
    expect(byDraftGoal).toMatchObject({ status: 'CONVERTED', endedAfter: 'PT30M' });
    // Past the draft goal's window, the event does nothing.
    const late = await simulated(t, w.id, {
      definition: { ...draft, goal: { event: 'upgraded', window: { amount: 1, unit: 'hours' } } },
      events: [{ after: '2 hours', event: 'upgraded' }],
    });
    expect(late.status).toBe('COMPLETED');
    const refusedDraft = await simulate(t, w.id, {
      definition: {
        ...draft,
        goal: { event: 'upgraded', filter: { logic: 'AND', groups: [{ filters: [{ field: 'email', operator: 'exists' }] }] } },
      },
    });
    expect([refusedDraft.status, refusedDraft.body.error.errors]).toEqual([
      400,
      [{ field: 'definition.goal.filter.groups.0.filters.0.field', message: expect.any(String), code: 'invalid_filter' }],
    ]);
    expect(await everyTable()).toEqual(before);
  });
});

describe('refusals', () => {
  let t: Tenant;
  let workflowId: string;
  beforeAll(async () => {
    t = await tenant(stack);
    workflowId = (await createWorkflow(t)).id;
  });

  const draft = (steps: object[], transitions: object[] = []) => ({ definition: { steps, transitions } });
  const exit = (id: string) => ({ id, type: 'EXIT', config: {} });
  const delay = (id: string) => ({ id, type: 'DELAY', config: { amount: 1, unit: 'days' } });

  async function refused(body: object, status: number, code: string, id = workflowId) {
    const before = await everyTable();
    const res = await simulate(t, id, body);
    expect([res.status, res.body.error?.code]).toEqual([status, code]);
    expect(await everyTable()).toEqual(before);
    return res.body.error as { message: string; errors?: Array<{ field: string }> };
  }

  it.each([
    ['a saved workflow without steps', {}, 'steps'],
    [
      'no entry step',
      draft(
        [delay('a'), delay('b')],
        [
          { fromStepId: 'a', toStepId: 'b' },
          { fromStepId: 'b', toStepId: 'a' },
        ],
      ),
      'definition.transitions.1.toStepId',
    ],
    ['two entry steps', draft([exit('a'), exit('b')]), 'definition.transitions'],
    [
      'a transition leaving EXIT',
      draft([exit('a'), delay('b')], [{ fromStepId: 'a', toStepId: 'b' }]),
      'definition.transitions.0.fromStepId',
    ],
    ['a transition to an unknown step', draft([delay('a')], [{ fromStepId: 'a', toStepId: 'zz' }]), 'definition.transitions.0.toStepId'],
    [
      'a template of no project',
      draft([{ id: 'a', type: 'SEND_EMAIL', config: { templateId: '00000000-0000-4000-8000-000000000000' } }]),
      'definition.steps.0.config.templateId',
    ],
    [
      'an unknown filter field',
      draft([
        { id: 'a', type: 'CONDITION', config: { logic: 'AND', groups: [{ filters: [{ field: 'foo', operator: 'equals', value: 1 }] }] } },
      ]),
      'definition.steps.0.config.groups.0.filters.0.field',
    ],
    ['an expect of an unknown step', { ...draft([exit('a')]), expect: [{ stepId: 'b', reached: true }] }, 'expect.0.stepId'],
    ['a webhook answer of an unknown step', { ...draft([exit('a')]), webhookResponses: { b: { status: 200 } } }, 'webhookResponses.b'],
  ])('400 for %s', async (_what, body, field) => {
    const error = await refused(body, 400, 'BAD_REQUEST');
    expect(error.errors?.map((e) => e.field)).toContain(field);
  });

  it.each([
    ['an offset without unit', { events: [{ after: '3', event: 'paid' }] }, 'events.0.after'],
    ['an offset beyond 400 days', { until: '401 days' }, 'until'],
    ['both contact and contactId', { contact: {}, contactId: '00000000-0000-4000-8000-000000000000' }, 'contactId'],
    [
      'a DELAY over 365 days',
      draft([{ id: 'a', type: 'DELAY', config: { amount: 366, unit: 'days' } }]),
      'definition.steps.0.config.amount',
    ],
    ['a webhook answer without status', { webhookResponses: { a: { body: 1 } } }, 'webhookResponses.a.status'],
    ['an unknown step type', draft([{ id: 'a', type: 'TELEPORT', config: {} }]), 'definition.steps.0.type'],
  ])('422 for %s', async (_what, body, field) => {
    const error = await refused(body, 422, 'VALIDATION_ERROR');
    expect(error.errors?.map((e) => e.field)).toContain(field);
  });

  it('404 for an unknown workflow, a contact of no project, and another project’s workflow or contact', async () => {
    await refused(draft([exit('a')]), 404, 'WORKFLOW_NOT_FOUND', '00000000-0000-4000-8000-000000000000');
    await refused({ ...draft([exit('a')]), contactId: '00000000-0000-4000-8000-000000000000' }, 404, 'CONTACT_NOT_FOUND');
    const other = await tenant(stack);
    const theirs = await createWorkflow(other);
    await addStep(other, theirs.id, 'EXIT');
    await refused({}, 404, 'WORKFLOW_NOT_FOUND', theirs.id);
    const theirContact = await seedContact(stack, other.project.id);
    await refused({ ...draft([exit('a')]), contactId: theirContact.id }, 404, 'CONTACT_NOT_FOUND');
  });
});
