import { startStack, type TestStack } from '../helpers/stack';
import { tenant, type Tenant } from '../helpers/tenants';
import { createWorkflow } from './helpers';

/**
 * Simulations side by side (docs/simulation.md "Concurrency"): each has a virtual clock of its own, and beyond
 * the servers and the queue a request is refused with 429 rather than piling up.
 */

const definitionFor = (days: number) => ({
  steps: [
    { id: 'delay', type: 'DELAY', config: { amount: days, unit: 'days' } },
    { id: 'wait', type: 'WAIT_FOR_EVENT', config: { eventName: 'paid', timeout: 5 * 86_400 } },
    { id: 'exit', type: 'EXIT', config: {} },
  ],
  transitions: [
    { fromStepId: 'delay', toStepId: 'wait' },
    { fromStepId: 'wait', toStepId: 'exit' },
  ],
});

/** n days of DELAY, then an event n + 2 days in (so 2 days into the wait): each timeline says its own n. */
const scenario = (days: number) => ({ definition: definitionFor(days), events: [{ after: `${days + 2} days`, event: 'paid' }] });

describe('two servers and a queue', () => {
  let stack: TestStack;
  let t: Tenant;
  let workflowId: string;
  beforeAll(async () => {
    stack = await startStack({ env: { SIMULATION_SERVERS: '2', SIMULATION_QUEUE: '20' } });
    t = await tenant(stack);
    workflowId = (await createWorkflow(t)).id;
  });
  afterAll(() => stack?.close());

  it('runs simulations at once, each on its own clock', async () => {
    const days = [1, 30, 7, 90, 3, 200, 14, 60];
    const answers = await Promise.all(days.map((n) => t.c.post(`/workflows/${workflowId}/simulate`).send(scenario(n))));
    answers.forEach((res, i) => {
      const n = days[i]!;
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'EXITED', endedAfter: `P${n + 2}D` });
      expect(
        res.body.steps.map((s: { stepId: string; startedAfter: string; endedAfter: string; outcome?: string }) => [
          s.stepId,
          s.startedAfter,
          s.endedAfter,
          s.outcome ?? null,
        ]),
      ).toEqual([
        ['delay', 'PT0S', `P${n}D`, null],
        ['wait', `P${n}D`, `P${n + 2}D`, 'EVENT'],
        ['exit', `P${n + 2}D`, `P${n + 2}D`, null],
      ]);
    });
  });
});

describe('one server without a queue', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { SIMULATION_SERVERS: '1', SIMULATION_QUEUE: '0' } });
  });
  afterAll(() => stack?.close());

  it('answers 429 in the error envelope to the simulations beyond it', async () => {
    const t = await tenant(stack);
    const workflowId = (await createWorkflow(t)).id;
    const answers = await Promise.all([1, 2, 3, 4].map((n) => t.c.post(`/workflows/${workflowId}/simulate`).send(scenario(n))));
    const refused = answers.filter((res) => res.status === 429);
    expect(answers.filter((res) => res.status === 200).length + refused.length).toBe(4);
    expect(refused.length).toBeGreaterThan(0);
    for (const res of refused) {
      expect(res.body.error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', details: { retryAfter: 1 } });
      expect(res.headers['retry-after']).toBe('1');
    }
    // Once the others are done, the server takes the next one.
    expect((await t.c.post(`/workflows/${workflowId}/simulate`).send(scenario(5))).status).toBe(200);
  });
});

describe('without a test server', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { TEMPORAL_TEST_SERVER_PATH: '/nonexistent/temporal-test-server', SIMULATION_SERVERS: '1' } });
  });
  afterAll(() => stack?.close());

  it('answers 503 in the error envelope, and the API goes on answering', async () => {
    const t = await tenant(stack);
    const workflowId = (await createWorkflow(t)).id;
    // At once, so that some wait in the queue behind a start that fails: each is answered, none stalls.
    const answers = await Promise.all([1, 2, 3, 4].map((n) => t.c.post(`/workflows/${workflowId}/simulate`).send(scenario(n))));
    for (const res of answers) expect([res.status, res.body.error?.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    await t.c.get(`/workflows/${workflowId}`).expect(200);
  });
});
