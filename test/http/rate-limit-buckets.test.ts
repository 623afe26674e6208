import { startStack, type TestStack } from '../helpers/stack';
import { clearOfMinuteEdge } from '../helpers/minute';
import { callProbe, limitHeaders, probeRoutes } from './probe-routes';
import { newTenant } from '../helpers/tenants';
import type { TestProject } from '../helpers/fixtures';

/** A stack with the per-minute window off, so that every header and 429 below comes from a bucket. */
const bucketStack = (env: Record<string, string>) =>
  startStack({ env: { API_RATE_LIMIT_PER_MINUTE: '0', ...env }, extraRoutes: probeRoutes });

describe('token buckets', () => {
  it('are off by default: their settings alone limit nothing', async () => {
    const stack = await bucketStack({ RATE_LIMIT_CONTACTS_PER_SECOND: '1', RATE_LIMIT_CONTACTS_BURST: '1' });
    try {
      const { project } = await newTenant(stack);
      for (let i = 0; i < 4; i++) expect(limitHeaders(await callProbe(stack, project, 'contacts').expect(200))).toBeNull();
    } finally {
      await stack.close();
    }
  });

  it('default to track 200, send 50 and contacts 100 as burst, each its own bucket', async () => {
    const stack = await bucketStack({ RATE_LIMIT_ENABLED: 'true' });
    try {
      const { project } = await newTenant(stack);
      for (const [bucket, burst] of [
        ['track', 200],
        ['send', 50],
        ['contacts', 100],
      ] as const) {
        const res = await callProbe(stack, project, bucket).expect(200);
        expect(limitHeaders(res)).toMatchObject({ limit: burst, remaining: burst - 1 });
      }
      expect(limitHeaders(await callProbe(stack, project).expect(200))).toBeNull();
    } finally {
      await stack.close();
    }
  });
});

describe('token buckets with RATE_LIMIT_ENABLED=true', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await bucketStack({
      RATE_LIMIT_ENABLED: 'true',
      RATE_LIMIT_CONTACTS_PER_SECOND: '1',
      RATE_LIMIT_CONTACTS_BURST: '2',
      RATE_LIMIT_TRACK_PER_SECOND: '0',
      RATE_LIMIT_TRACK_BURST: '1',
    });
  });
  afterAll(() => stack.close());

  /** Spends a project's contacts bucket: requests sent together arrive within the second a token takes to refill, however loaded the machine. */
  async function exhaust(project: TestProject) {
    const answers = await Promise.all(Array.from({ length: 8 }, () => callProbe(stack, project, 'contacts')));
    expect(answers.map((r) => r.status).filter((s) => s !== 200 && s !== 429)).toEqual([]);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    return refused;
  }

  it('allows a burst, then answers 429 with Retry-After until a token has refilled', async () => {
    const { project } = await newTenant(stack);
    expect(limitHeaders(await callProbe(stack, project, 'contacts').expect(200))).toMatchObject({ limit: 2, remaining: 1 });

    for (const refused of await exhaust(project)) {
      // One token per second: the wait is under a second, rounded up.
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.body.error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', statusCode: 429, details: { retryAfter: 1 } });
      expect(limitHeaders(refused)).toEqual({ limit: 2, remaining: 0, reset: 1 });
    }

    await new Promise((r) => setTimeout(r, 1100));
    await callProbe(stack, project, 'contacts').expect(200);
  });

  it('keys each bucket by project: another project keeps its burst', async () => {
    const spent = (await newTenant(stack)).project;
    const other = (await newTenant(stack)).project;
    await exhaust(spent);
    expect(limitHeaders(await callProbe(stack, other, 'contacts').expect(200))).toMatchObject({ limit: 2, remaining: 1 });
  });

  it('disables a single bucket whose *_PER_SECOND is 0', async () => {
    const { project } = await newTenant(stack);
    for (let i = 0; i < 4; i++) expect(limitHeaders(await callProbe(stack, project, 'track').expect(200))).toBeNull();
    expect(limitHeaders(await callProbe(stack, project, 'send').expect(200))).toMatchObject({ limit: 50 });
  });
});

describe('token buckets beside the per-minute window', () => {
  it('report the limit closest to running out, and a request the window refuses spends no token', async () => {
    const stack = await startStack({
      env: {
        API_RATE_LIMIT_PER_MINUTE: '2',
        RATE_LIMIT_ENABLED: 'true',
        RATE_LIMIT_CONTACTS_PER_SECOND: '1',
        RATE_LIMIT_CONTACTS_BURST: '3',
      },
      extraRoutes: probeRoutes,
    });
    try {
      await clearOfMinuteEdge();
      const { project } = await newTenant(stack);
      // 1 of 2 left in the window is closer to running out than 2 of 3 in the bucket.
      expect(limitHeaders(await callProbe(stack, project, 'contacts').expect(200))).toMatchObject({ limit: 2, remaining: 1 });
      await callProbe(stack, project, 'contacts').expect(200);
      const bucket = () =>
        stack.deps.orm.em
          .getConnection()
          .execute<{ tokens: number; updated_at: Date }[]>('select "tokens", "updated_at" from rate_limit_counters where "key" = ?', [
            `bucket:contacts:${project.id}`,
          ]);
      const spent = await bucket();
      expect(spent).toHaveLength(1);
      expect(limitHeaders(await callProbe(stack, project, 'contacts').expect(429))).toMatchObject({ limit: 2, remaining: 0 });
      expect(await bucket()).toEqual(spent);
    } finally {
      await stack.close();
    }
  });
});
