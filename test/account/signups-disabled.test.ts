import { startStack, type TestStack } from '../helpers/stack';
import { signupUser, uniqueEmail } from '../helpers/fixtures';
import { linkToken, waitForMail } from '../helpers/mail';
import { sql } from '../helpers/seed';
import { newTenant } from '../helpers/tenants';

/** Two APIs over one database: `open` creates the users that already exist, `closed` runs with DISABLE_SIGNUPS. */
let open: TestStack;
let closed: TestStack;
beforeAll(async () => {
  open = await startStack();
  closed = await startStack({ env: { DISABLE_SIGNUPS: 'true' } });
});
afterAll(async () => {
  await closed.close();
  await open.close();
});

const userCount = (email: string) =>
  sql<{ n: number }>(open, 'select count(*)::int as n from users where email = ?', [email]).then((r) => r[0]!.n);

describe('DISABLE_SIGNUPS=true', () => {
  it('refuses a signup with 403 SIGNUPS_DISABLED, creating no user, session or mail', async () => {
    const email = uniqueEmail();
    const res = await closed.http().post('/auth/signup').send({ email, password: 'long enough password' });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'SIGNUPS_DISABLED', statusCode: 403 });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await userCount(email)).toBe(0);
    expect(closed.smtp.to(email)).toHaveLength(0);
  });

  it('says so in /config', async () => {
    expect((await closed.http().get('/config').expect(200)).body.signupsEnabled).toBe(false);
    expect((await open.http().get('/config').expect(200)).body.signupsEnabled).toBe(true);
  });

  it('still logs in existing users', async () => {
    const user = await signupUser(open);
    const res = await closed.http().post('/auth/login').send({ email: user.email, password: user.password }).expect(200);
    expect(res.body).toMatchObject({ id: user.id, email: user.email });
  });

  it('lets invited people in through the invitation link only, not by claiming the account through signup', async () => {
    const { user: owner, project } = await newTenant(open);
    const ownerOnClosed = (await closed.http().post('/auth/login').send({ email: owner.email, password: owner.password }).expect(200))
      .headers['set-cookie'];
    const email = uniqueEmail('invited');
    await closed.http().post(`/projects/${project.id}/members`).set('Cookie', ownerOnClosed).send({ email }).expect(201);

    expect((await closed.http().post('/auth/signup').send({ email, password: 'long enough password' })).status).toBe(403);
    const token = linkToken(await waitForMail(closed.smtp, email, /^You have been added/), '/accept-invite');
    await closed.http().post('/auth/reset-password').send({ token, password: 'long enough password' }).expect(200);
    await closed.http().post('/auth/login').send({ email, password: 'long enough password' }).expect(200);
  });
});
