import type { DeliveryPump } from '../../src/modules/emails/delivery/pump';
import { startStack, type TestStack } from '../helpers/stack';
import { startPump } from '../helpers/pump';
import { sql } from '../helpers/seed';
import { recipient, send, settled } from './helpers';
import { senderTenant, type SenderTenant } from '../helpers/tenants';

/** MAX_EMAIL_RATE_PER_SECOND bounds every project's own rate; 0 means that maximum, not unlimited. */
describe('emailRatePerSecond with MAX_EMAIL_RATE_PER_SECOND=2', () => {
  let stack: TestStack;
  let pump: DeliveryPump | undefined;
  beforeAll(async () => {
    stack = await startStack({ env: { MAX_EMAIL_RATE_PER_SECOND: '2' } });
  });
  afterEach(async () => {
    await pump?.stop();
    pump = undefined;
  });
  afterAll(() => stack?.close());

  const setRate = (own: SenderTenant, emailRatePerSecond: unknown) =>
    stack.http().patch(`/users/@me/projects/${own.project.id}`).set('Cookie', own.user.cookie).send({ emailRatePerSecond });

  it('refuses a rate above the maximum with 422 VALIDATION_ERROR naming it, and takes 0 to 2', async () => {
    const own = await senderTenant(stack);
    for (const over of [3, 100_000]) {
      const res = await setRate(own, over).expect(422);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', statusCode: 422 });
      expect(res.body.error.errors).toEqual([
        expect.objectContaining({ field: 'emailRatePerSecond', message: expect.stringContaining('2') }),
      ]);
    }
    const [stored] = await sql<{ email_rate_per_second: number | null }>(stack, 'select email_rate_per_second from projects where id = ?', [
      own.project.id,
    ]);
    expect(stored!.email_rate_per_second).toBeNull();
    expect((await setRate(own, 2).expect(200)).body.emailRatePerSecond).toBe(2);
    expect((await setRate(own, 0).expect(200)).body.emailRatePerSecond).toBe(0);

    const doc = await stack.http().get('/openapi.json').expect(200);
    const body = doc.body.paths['/users/@me/projects/{id}'].patch.requestBody.content['application/json'].schema;
    const rate = (body.properties ?? body.allOf?.[0]?.properties)?.emailRatePerSecond;
    expect(JSON.stringify(rate)).toContain('"maximum":2');
  });

  it('sends a project whose rate is 0 at the maximum, not unlimited', async () => {
    const own = await senderTenant(stack);
    await setRate(own, 0).expect(200);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await send(stack, own.project, { to: recipient(), from: own.from, subject: 'Hi', body: 'x' }).expect(200);
      ids.push(res.body.data.emails[0].email);
    }
    const started = Date.now();
    pump = await startPump(stack.deps, { batchSize: 10, concurrency: 10 });
    const rows = await Promise.all(ids.map((id) => settled(stack, id)));
    const last = Math.max(...rows.map((r) => new Date(r.sent_at!).getTime()));
    // 2 go at once (one second's burst), the other 4 at 2 per second: the last is released 2 s after the
    // first claim; unlimited would send all 6 together. Counted from before the first claim, since a slow
    // first SMTP connection delays the first email's sent_at, not the releases.
    expect(last - started).toBeGreaterThanOrEqual(1_500);
    const slots = await sql(stack, 'select 1 from email_send_slots where project_id = ?', [own.project.id]);
    expect(slots).toHaveLength(1);
  });
});
