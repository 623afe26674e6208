import { startStack, type TestStack } from '../helpers/stack';
import { createWorkflow } from './helpers';
import { tenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

it('smoke', async () => {
  const t = await tenant(stack);
  const w = await createWorkflow(t);
  const res = await t.c.post(`/workflows/${w.id}/simulate`).send({
    definition: {
      steps: [
        { id: 'wait', type: 'WAIT_FOR_EVENT', config: { eventName: 'paid', timeout: 3 * 86400 } },
        { id: 'delay', type: 'DELAY', config: { amount: 30, unit: 'days' } },
        { id: 'cond', type: 'CONDITION', config: { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] } },
        { id: 'exit', type: 'EXIT', config: { reason: 'bye' } },
      ],
      transitions: [
        { fromStepId: 'wait', toStepId: 'delay' },
        { fromStepId: 'delay', toStepId: 'cond' },
        { fromStepId: 'cond', toStepId: 'exit', branch: 'yes' },
      ],
    },
    contact: { data: { plan: 'pro' } },
    events: [{ after: '2 days', event: 'paid', data: { amount: 3 } }],
  });
  console.log(JSON.stringify(res.body, null, 1));
  expect(res.status).toBe(200);
});
