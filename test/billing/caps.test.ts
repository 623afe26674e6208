import { startStack, type TestStack } from '../helpers/stack';
import { recipient, send, settled, storedCounts } from '../emails/helpers';
import { campaignTenant, type SenderTenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ pump: true, terminateWorkflows: true });
});
afterAll(() => stack?.close());

/** A sender tenant with its owner's session, to set caps and read consumption. */
async function cappedSender(limits: Record<string, number | null>) {
  const sender = await campaignTenant(stack);
  const { user, project } = sender;
  await stack.http().put(`/users/@me/projects/${project.id}/billing-limits`).set('Cookie', user.cookie).send({ limits }).expect(200);
  const consumption = async () =>
    (await stack.http().get(`/users/@me/projects/${project.id}/billing-consumption`).set('Cookie', user.cookie).expect(200)).body;
  return { ...sender, consumption };
}

const mail = (sender: SenderTenant, to: string | string[], subject = 'Hello') =>
  send(stack, sender.project, { to, from: sender.from, subject, body: '<p>Hi</p>' });
const monthEnd = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
};

describe('the TRANSACTIONAL cap on /v1/send', () => {
  it('lets sends through up to the cap, then refuses with 403 BILLING_LIMIT_EXCEEDED, storing and sending nothing', async () => {
    const s = await cappedSender({ TRANSACTIONAL: 3 });
    const first = await mail(s, [recipient(), recipient()]).expect(200);
    // Delivery records email.sent events: let it finish, so that only the refused request could change the counts.
    for (const { email } of first.body.data.emails) await settled(stack, email);
    const before = await storedCounts(stack, s.project.id);

    const over = [recipient('over'), recipient('over')];
    const refused = await mail(s, over, 'Over the cap').expect(403);
    expect(refused.body).toMatchObject({
      success: false,
      error: {
        code: 'BILLING_LIMIT_EXCEEDED',
        statusCode: 403,
        details: { category: 'TRANSACTIONAL', limit: 3, used: 2, requested: 2, remaining: 1, resetsAt: monthEnd().toISOString() },
      },
    });
    expect(await storedCounts(stack, s.project.id)).toEqual(before);

    const last = await mail(s, recipient('last')).expect(200);
    await settled(stack, last.body.data.emails[0].email);
    expect((await mail(s, recipient('one-more')).expect(403)).body.error.details).toMatchObject({ used: 3, remaining: 0 });
    for (const to of over) expect(stack.smtp.to(to)).toEqual([]);
    expect((await s.consumption()).categories.TRANSACTIONAL).toEqual({ used: 3, limit: 3, remaining: 0 });
  });

  it('a cap of 0 blocks the category; other categories and other projects are not affected', async () => {
    const blocked = await cappedSender({ TRANSACTIONAL: 0, CAMPAIGN: 100 });
    const free = await cappedSender({ TRANSACTIONAL: null });
    expect((await mail(blocked, recipient()).expect(403)).body.error.code).toBe('BILLING_LIMIT_EXCEEDED');
    await mail(free, recipient()).expect(200);
    expect((await free.consumption()).categories.TRANSACTIONAL).toEqual({ used: 1, limit: null, remaining: null });
  });

  it('holds under concurrent requests: exactly the cap gets through', async () => {
    const s = await cappedSender({ TRANSACTIONAL: 4 });
    const results = await Promise.all(Array.from({ length: 10 }, () => mail(s, recipient('race'))));
    expect(results.map((r) => r.status).sort((a, b) => a - b)).toEqual([200, 200, 200, 200, 403, 403, 403, 403, 403, 403]);
    expect((await storedCounts(stack, s.project.id)).emails).toBe(4);
  });

  it('counts an email that failed for good as not sent, so the cap frees it', async () => {
    const s = await cappedSender({ TRANSACTIONAL: 1 });
    const to = recipient('gone');
    stack.smtp.refuse(to, 550, 'No such user here');
    const res = await mail(s, to).expect(200);
    expect((await settled(stack, res.body.data.emails[0].email)).status).toBe('FAILED');
    expect((await s.consumption()).categories.TRANSACTIONAL).toMatchObject({ used: 0, remaining: 1 });
    await mail(s, recipient()).expect(200);
  });
});

describe('RateLimit headers of /v1/send under a cap (docs/billing.md)', () => {
  it('never show more remaining than the cap allows, and then describe the cap', async () => {
    const s = await cappedSender({ TRANSACTIONAL: 5 });
    const first = await mail(s, [recipient(), recipient()]).expect(200);
    expect(first.headers['ratelimit-limit']).toBe('5');
    expect(first.headers['ratelimit-remaining']).toBe('3');
    const reset = Number(first.headers['ratelimit-reset']);
    const untilMonthEnd = (monthEnd().getTime() - Date.now()) / 1000;
    expect(reset).toBeGreaterThan(untilMonthEnd - 60);
    expect(reset).toBeLessThanOrEqual(Math.ceil(untilMonthEnd) + 1);

    const refused = await mail(s, [recipient(), recipient(), recipient(), recipient()]).expect(403);
    expect([refused.headers['ratelimit-limit'], refused.headers['ratelimit-remaining']]).toEqual(['5', '3']);
  });

  it('are left to the request limits when the cap allows more than they do, or there is no cap', async () => {
    const roomy = await cappedSender({ TRANSACTIONAL: 1_000_000 });
    const res = await mail(roomy, recipient()).expect(200);
    expect(res.headers['ratelimit-limit']).toBe(String(stack.deps.config.API_RATE_LIMIT_PER_MINUTE));
    expect(Number(res.headers['ratelimit-remaining'])).toBeLessThan(stack.deps.config.API_RATE_LIMIT_PER_MINUTE);
    const uncapped = await cappedSender({});
    expect((await mail(uncapped, recipient()).expect(200)).headers['ratelimit-limit']).toBe(
      String(stack.deps.config.API_RATE_LIMIT_PER_MINUTE),
    );
  });
});
