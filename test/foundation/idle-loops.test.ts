import { EventDispatcher } from '../../src/modules/outbox/dispatcher';
import { throwawayDatabaseUrl } from '../helpers/database';
import { sql } from '../helpers/seed';
import { startStack, type TestStack } from '../helpers/stack';

/**
 * The worker's background loops over PostgreSQL (email delivery, the events outbox) sleep until a NOTIFY, a
 * due row or their slow poll when there is nothing to do: an idle worker must not keep the database busy.
 */
let stack: TestStack;
let dispatcher: EventDispatcher | undefined;
beforeAll(async () => {
  // A database of its own: nothing else's work wakes the loops.
  stack = await startStack({ pump: true, env: { DATABASE_URL: await throwawayDatabaseUrl() } });
  dispatcher = new EventDispatcher(stack.deps.orm, stack.deps.config.DATABASE_URL, [], stack.deps.logger);
  await dispatcher.start();
});
afterAll(async () => {
  await dispatcher?.stop();
  await stack?.close();
});

const commits = async () =>
  Number((await sql<{ n: string }>(stack, 'select xact_commit as n from pg_stat_database where datname = current_database()'))[0]!.n);

describe('idle background loops', () => {
  it('run a handful of transactions a second, not a busy loop', async () => {
    await new Promise((r) => setTimeout(r, 500));
    const before = await commits();
    await new Promise((r) => setTimeout(r, 2_000));
    // Statistics reach pg_stat_database within a second or so of each backend's activity.
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await commits()) - before).toBeLessThan(50);
  });
});
