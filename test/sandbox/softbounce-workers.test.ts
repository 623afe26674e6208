import { startStack, type TestStack } from '../helpers/stack';
import { startPump } from '../helpers/pump';
import { waitFor } from '../helpers/wait';
import { senderTenant } from '../helpers/tenants';
import { emailRow, send } from '../emails/helpers';
import { Simulator } from '../../src/modules/sandbox/simulator';
import type { DeliveryPump } from '../../src/modules/emails/delivery/pump';

/**
 * softbounce@ refuses a message once whichever worker answers it: here the worker's simulator is restarted
 * (a fresh one, as another worker or a restarted process would have) between the refusal and the retry.
 */
let stack: TestStack;
let pump: DeliveryPump | undefined;
const simulators: Simulator[] = [];
beforeAll(async () => {
  // No pump of the stack's own: the one below retries slowly enough to restart the simulator in between.
  stack = await startStack({ env: { SANDBOX_ENABLED: 'true' } });
});
afterAll(async () => {
  await pump?.stop();
  for (const simulator of simulators) await simulator.close();
  await stack?.close();
});

it('softbounce@: the retry sent after the simulator restarted is accepted (refused once, not once per process)', async () => {
  simulators.push(await Simulator.start(stack.deps));
  pump = await startPump(stack.deps, { retryBaseMs: 3_000, retryMaxMs: 3_000 });
  const sender = await senderTenant(stack);
  const res = await send(stack, sender.project, {
    to: `softbounce+restart-${Date.now()}@simulator.postwire.test`,
    from: sender.from,
    subject: 'Hello',
    body: '<p>Hi</p>',
  }).expect(200);
  const emailId = res.body.data.emails[0].email as string;

  const refused = await waitFor('the first refusal', async () => {
    const row = await emailRow(stack, emailId);
    return row.attempts >= 1 ? row : undefined;
  });
  expect(refused).toMatchObject({ status: 'PENDING', attempts: 1, error: expect.stringContaining('451') });

  // A new simulator takes the domain over (the mailer routes it to the latest); the first one stops.
  simulators.push(await Simulator.start(stack.deps));
  await simulators.shift()!.close();

  const delivered = await waitFor(
    'the retry to be delivered',
    async () => {
      const row = await emailRow(stack, emailId);
      return row.status === 'DELIVERED' ? row : undefined;
    },
    30_000,
  );
  expect(delivered).toMatchObject({ attempts: 2 });
});
