import { Client } from 'pg';
import { startStack, type TestStack } from '../helpers/stack';
import { throwawayDatabaseUrl } from '../helpers/database';
import { clearOfMinuteEdge } from '../helpers/minute';
import { callProbe, limitHeaders, probeRoutes } from './probe-routes';
import { newTenant } from '../helpers/tenants';

async function sql(databaseUrl: string, statement: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

describe('counter store shared by several API instances', () => {
  const env = {
    API_RATE_LIMIT_PER_MINUTE: '4',
    RATE_LIMIT_ENABLED: 'true',
    RATE_LIMIT_SEND_PER_SECOND: '1',
    RATE_LIMIT_SEND_BURST: '2',
  };
  let first: TestStack;
  let second: TestStack;
  beforeAll(async () => {
    // Two apps, each with its own connection pool, over the same database, as two API processes would be.
    first = await startStack({ env, extraRoutes: probeRoutes });
    second = await startStack({ env, extraRoutes: probeRoutes });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });
  beforeEach(() => clearOfMinuteEdge());

  it('spends one per-minute budget whichever instance answers', async () => {
    const { project } = await newTenant(first);
    const remaining: number[] = [];
    for (const stack of [first, second, first, second]) {
      remaining.push(limitHeaders(await callProbe(stack, project).expect(200))!.remaining);
    }
    expect(remaining).toEqual([3, 2, 1, 0]);
    await callProbe(first, project).expect(429);
    await callProbe(second, project).expect(429);
  });

  it('spends one token bucket whichever instance answers', async () => {
    const { project } = await newTenant(first);
    await callProbe(first, project, 'send').expect(200);
    await callProbe(second, project, 'send').expect(200);
    await callProbe(first, project, 'send').expect(429);
  });
});

describe('counter store failing', () => {
  it('allows requests, without headers, when the counters cannot be read or written', async () => {
    const databaseUrl = await throwawayDatabaseUrl();
    const stack = await startStack({
      env: { DATABASE_URL: databaseUrl, API_RATE_LIMIT_PER_MINUTE: '1', RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_TRACK_BURST: '1' },
      extraRoutes: probeRoutes,
    });
    try {
      await clearOfMinuteEdge();
      const { project } = await newTenant(stack);
      await callProbe(stack, project).expect(200);
      await callProbe(stack, project).expect(429);

      await sql(databaseUrl, 'drop table rate_limit_counters');
      for (const bucket of [undefined, 'track', 'track'] as const) {
        expect(limitHeaders(await callProbe(stack, project, bucket).expect(200))).toBeNull();
      }
      await expect(stack.app.limiter.prune()).resolves.toBeUndefined();
    } finally {
      await stack.close();
    }
  });
});

describe('pruning', () => {
  it('drops the counters of windows that have passed and keeps current ones', async () => {
    const stack = await startStack({ env: { DATABASE_URL: await throwawayDatabaseUrl() } });
    try {
      const connection = stack.deps.orm.em.getConnection();
      await connection.execute(
        `insert into rate_limit_counters ("key", "tokens", "updated_at", "expires_at") values
         ('old', 1, now(), now() - interval '1 second'), ('current', 1, now(), now() + interval '1 minute')`,
      );
      await stack.app.limiter.prune();
      const rows = await connection.execute<{ key: string }[]>('select "key" from rate_limit_counters order by "key"');
      expect(rows.map((r) => r.key)).toEqual(['current']);
    } finally {
      await stack.close();
    }
  });
});
