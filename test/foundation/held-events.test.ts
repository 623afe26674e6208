import { EventDispatcher } from '../../src/modules/outbox/dispatcher';
import type { EventConsumer } from '../../src/modules/outbox/consumer';
import { throwawayDatabaseUrl } from '../helpers/database';
import { hear, sql } from '../helpers/seed';
import { startStack, type TestStack } from '../helpers/stack';
import { client, tenant } from '../helpers/tenants';
import { waitFor } from '../helpers/wait';

/**
 * While one dispatcher's hand-off holds the due events, another finds nothing it may claim: it waits a little
 * between looks (docs/contributors/events.md) rather than claim nothing in a loop until the first commits.
 */
let stack: TestStack;
const running: EventDispatcher[] = [];
beforeAll(async () => {
  // A database of its own: nothing else's work commits there.
  stack = await startStack({ env: { DATABASE_URL: await throwawayDatabaseUrl() } });
});
afterAll(async () => {
  await Promise.all(running.map((d) => d.stop()));
  await stack?.close();
});

const commits = async () =>
  Number((await sql<{ n: string }>(stack, 'select xact_commit as n from pg_stat_database where datname = current_database()'))[0]!.n);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startDispatcher(consumers: EventConsumer[]): Promise<void> {
  const dispatcher = new EventDispatcher(stack.deps.orm, stack.deps.config.DATABASE_URL, consumers, stack.deps.logger, {
    handoffTimeoutMs: 60_000,
  });
  await dispatcher.start();
  running.push(dispatcher);
}

describe('a dispatcher beside one that holds the due events', () => {
  it('looks again a few times a second, not in a busy loop', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let taken = 0;
    await startDispatcher([
      {
        name: 'holder',
        async handle() {
          taken++;
          await held;
        },
      },
    ]);
    const { project } = await tenant(stack);
    await hear(stack, project.id, 'signup');
    await client(stack, project).track({ email: 'held@example.test', event: 'signup' }).expect(200);
    await waitFor('the first hand-off under way', async () => (taken === 1 ? true : undefined));
    await startDispatcher([]);
    await pause(500);
    const before = await commits();
    // Three seconds: statistics reach pg_stat_database within a second or so of each backend's activity.
    await pause(3_000);
    const looked = (await commits()) - before;
    release();
    // A look every 100 ms is two short transactions (the claim, the next due time): about 60 in 3 s.
    expect(looked).toBeLessThan(120);
  });
});
