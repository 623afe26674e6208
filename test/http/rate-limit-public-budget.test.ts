import { startStack, type TestStack } from '../helpers/stack';
import type { TestProject } from '../helpers/fixtures';
import { clearOfMinuteEdge } from '../helpers/minute';
import { limitHeaders } from './probe-routes';
import { newTenant } from '../helpers/tenants';

const LIMIT = 20;

/** docs/rate-limits.md: public-key traffic (/v1/track) has its own per-minute budget, as large as the secret-key one. */
describe(`per-minute budgets, API_RATE_LIMIT_PER_MINUTE=${LIMIT}`, () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { API_RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
  });
  afterAll(() => stack.close());
  beforeEach(() => clearOfMinuteEdge(20));

  const track = (project: TestProject, i: number) =>
    stack
      .http()
      .post('/v1/track')
      .set('Authorization', `Bearer ${project.public}`)
      .send({ email: `flood-${i}@example.test`, event: 'flood' });
  const secretCall = (project: TestProject) => stack.http().get('/contacts').set('Authorization', `Bearer ${project.secret}`);

  it('a flood with the public key spends only its own budget: secret-key calls keep passing', async () => {
    const { project } = await newTenant(stack);
    const flood = await Promise.all(Array.from({ length: LIMIT * 2 }, (_, i) => track(project, i)));
    const statuses = flood.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(LIMIT);
    expect((await track(project, -1)).status).toBe(429);

    // During the flood's minute, the whole secret-key budget is still there.
    for (let i = 0; i < LIMIT; i++) {
      const res = await secretCall(project).expect(200);
      expect(limitHeaders(res)).toMatchObject({ limit: LIMIT, remaining: LIMIT - 1 - i });
    }
    expect((await secretCall(project)).status).toBe(429);
  });

  it('secret-key traffic does not spend the public-key budget either', async () => {
    const { project } = await newTenant(stack);
    for (let i = 0; i < LIMIT; i++) await secretCall(project).expect(200);
    expect((await secretCall(project)).status).toBe(429);
    const res = await track(project, 0).expect(200);
    expect(limitHeaders(res)).toMatchObject({ limit: LIMIT, remaining: LIMIT - 1 });
  });
});
