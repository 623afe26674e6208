import { createHash, randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { sessionCookie, signupUser, uniqueEmail, type TestProject, type TestUser } from '../helpers/fixtures';
import { linkToken, waitForMail } from '../helpers/mail';
import { INVITE_SUBJECT, joinedUser } from '../helpers/members';
import { sql } from '../helpers/seed';
import { newTenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const as = (user: TestUser | null, req: ReturnType<ReturnType<TestStack['http']>['get']>) => (user ? req.set('Cookie', user.cookie) : req);
const list = (user: TestUser | null, projectId: string) => as(user, stack.http().get(`/projects/${projectId}/members`));
const invite = (user: TestUser | null, projectId: string, body: unknown) =>
  as(user, stack.http().post(`/projects/${projectId}/members`)).send(body as object);
const setRole = (user: TestUser | null, projectId: string, userId: string, body: unknown) =>
  as(user, stack.http().patch(`/projects/${projectId}/members/${userId}`)).send(body as object);
const remove = (user: TestUser | null, projectId: string, userId: string) =>
  as(user, stack.http().delete(`/projects/${projectId}/members/${userId}`));

/** Memberships as stored, `email → role`. */
const roles = async (projectId: string) =>
  Object.fromEntries(
    (
      await sql<{ email: string; role: string }>(
        stack,
        'select u.email, m.role from project_members m join users u on u.id = m.user_id where m.project_id = ?',
        [projectId],
      )
    ).map((r) => [r.email, r.role]),
  );

/** A new user who verified the address with the signup mail's link. */
async function verifiedUser(): Promise<TestUser> {
  const user = await signupUser(stack);
  const token = linkToken(await waitForMail(stack.smtp, user.email, /^Verify your email address$/), '/verify-email');
  await stack.http().post('/auth/verify-email').set('Cookie', user.cookie).send({ token }).expect(200);
  return user;
}

const projectIds = async (user: TestUser) =>
  (await stack.http().get('/users/@me/projects').set('Cookie', user.cookie).expect(200)).body.map((p: { id: string }) => p.id);
const contacts = (user: TestUser, projectId: string) =>
  stack.http().get('/contacts').set('Cookie', user.cookie).set('X-Project-Id', projectId);

/** The user sees nothing of the project: not in their list, its members and contacts refused. */
async function expectNoAccess(user: TestUser, projectId: string) {
  expect(await projectIds(user)).toEqual([]);
  expectError(await list(user, projectId), 403, 'FORBIDDEN');
  expectError(await contacts(user, projectId), 403, 'FORBIDDEN');
}

async function team() {
  const { user: owner, project } = await newTenant(stack);
  const admin = await joinedUser(stack, owner, project, 'ADMIN');
  const member = await joinedUser(stack, owner, project, 'MEMBER');
  const outsider = await signupUser(stack);
  return { owner, admin, member, outsider, project };
}

const expectError = (res: { status: number; body: { error?: { code?: string } } }, status: number, code: string) => {
  expect(res.status).toBe(status);
  expect(res.body.error?.code).toBe(code);
};

/** 401 without a session, 403 for a non-member, 404 for an unknown or malformed project id. */
async function expectAccessChecks(
  call: (user: TestUser | null, projectId: string) => PromiseLike<{ status: number }>,
  project: TestProject,
  outsider: TestUser,
) {
  expect((await call(null, project.id)).status).toBe(401);
  expect((await call(outsider, project.id)).status).toBe(403);
  expect((await call(outsider, randomUUID())).status).toBe(404);
  expect((await call(outsider, 'nope')).status).toBe(404);
}

describe('GET /projects/{id}/members', () => {
  it('lists every member with role and state, to any member', async () => {
    const { owner, admin, member, outsider, project } = await team();
    const res = await list(member, project.id).expect(200);
    expect(res.body).toEqual([
      { userId: owner.id, email: owner.email, role: 'OWNER', emailVerified: false, pending: false, joinedAt: expect.any(String) },
      { userId: admin.id, email: admin.email, role: 'ADMIN', emailVerified: true, pending: false, joinedAt: expect.any(String) },
      { userId: member.id, email: member.email, role: 'MEMBER', emailVerified: true, pending: false, joinedAt: expect.any(String) },
    ]);
    await expectAccessChecks((u, id) => list(u, id), project, outsider);
  });
});

describe('POST /projects/{id}/members', () => {
  it('adds a user with a verified address at once and tells them by mail', async () => {
    const { user: owner, project } = await newTenant(stack);
    const invitee = await verifiedUser();
    const res = await invite(owner, project.id, { email: invitee.email.toUpperCase(), role: 'ADMIN' }).expect(201);
    expect(res.body).toEqual({
      userId: invitee.id,
      email: invitee.email,
      role: 'ADMIN',
      emailVerified: true,
      pending: false,
      joinedAt: expect.any(String),
    });

    expect(await projectIds(invitee)).toEqual([project.id]);
    const mail = await waitForMail(stack.smtp, invitee.email, INVITE_SUBJECT);
    expect(mail.subject).toBe('You have been added to Test project on Postwire');
    expect(mail.text).toContain(`${owner.email} added you to the project "Test project" as ADMIN.`);
    expect(mail.text).not.toContain('token=');
  });

  it('lets an unverified account in only once it verifies the address with the invitation link', async () => {
    const { user: owner, project } = await newTenant(stack);
    // Whoever signed up first with the address, before the invitation.
    const early = await signupUser(stack);
    const res = await invite(owner, project.id, { email: early.email, role: 'ADMIN' }).expect(201);
    expect(res.body).toMatchObject({ userId: early.id, emailVerified: false, pending: true });
    await expectNoAccess(early, project.id);

    const token = linkToken(await waitForMail(stack.smtp, early.email, INVITE_SUBJECT), '/verify-email');
    await stack.http().post('/auth/verify-email').set('Cookie', early.cookie).send({ token }).expect(200);
    // Active without another step, with the same session.
    expect(await projectIds(early)).toEqual([project.id]);
    await contacts(early, project.id).expect(200);
    expect((await list(owner, project.id).expect(200)).body.find((m: { userId: string }) => m.userId === early.id)).toMatchObject({
      pending: false,
      emailVerified: true,
    });
  });

  it('creates a passwordless user for an unknown address and mails a 7-day set-password link', async () => {
    const { user: owner, project } = await newTenant(stack);
    const email = uniqueEmail('new');
    const res = await invite(owner, project.id, { email }).expect(201);
    expect(res.body).toMatchObject({ email, role: 'MEMBER', pending: true, emailVerified: false });

    const mail = await waitForMail(stack.smtp, email, INVITE_SUBJECT);
    expect(mail.text).toContain('http://localhost:3000/app/#/accept-invite?token=');
    const token = linkToken(mail, '/accept-invite');
    const [row] = await sql<{ password_hash: string | null }>(stack, 'select password_hash from users where email = ?', [email]);
    expect(row!.password_hash).toBeNull();
    const [stored] = await sql<{ token_digest: string; expires_at: Date; created_at: Date }>(
      stack,
      `select token_digest, expires_at, created_at from user_tokens where user_id = ?`,
      [res.body.userId],
    );
    expect(stored!.token_digest).toBe(sha256(token));
    expect(Math.abs(new Date(stored!.expires_at).getTime() - new Date(stored!.created_at).getTime() - 7 * 24 * 3600_000)).toBeLessThan(
      5_000,
    );

    expectError(await stack.http().post('/auth/login').send({ email, password: 'anything at all' }), 401, 'INVALID_CREDENTIALS');
    await stack.http().post('/auth/reset-password').send({ token, password: 'my own password' }).expect(200);
    const login = await stack.http().post('/auth/login').send({ email, password: 'my own password' }).expect(200);
    expect(login.body).toEqual({ id: res.body.userId, email, emailVerified: true });
    const members = await list(owner, project.id).expect(200);
    expect(members.body.find((m: { email: string }) => m.email === email)).toMatchObject({ pending: false, emailVerified: true });
  });

  it('lets an ADMIN invite ADMINs and MEMBERs, only an OWNER invite OWNERs, and no MEMBER invite', async () => {
    const { owner, admin, member, outsider, project } = await team();
    await invite(admin, project.id, { email: uniqueEmail(), role: 'ADMIN' }).expect(201);
    await invite(admin, project.id, { email: uniqueEmail(), role: 'MEMBER' }).expect(201);
    await invite(owner, project.id, { email: uniqueEmail(), role: 'OWNER' }).expect(201);
    const before = await roles(project.id);

    const tooHigh = uniqueEmail();
    expectError(await invite(admin, project.id, { email: tooHigh, role: 'OWNER' }), 403, 'FORBIDDEN');
    expectError(await invite(member, project.id, { email: tooHigh }), 403, 'FORBIDDEN');
    await expectAccessChecks((u, id) => invite(u, id, { email: tooHigh }), project, outsider);
    expect(await roles(project.id)).toEqual(before);
    expect(await sql(stack, 'select 1 from users where email = ?', [tooHigh])).toHaveLength(0);
    expect(stack.smtp.to(tooHigh)).toHaveLength(0);
  });

  it('refuses a current member with 409 and bad bodies with 422, changing nothing', async () => {
    const { owner, member, project } = await team();
    const before = await roles(project.id);
    const mailsBefore = stack.smtp.to(member.email).length;
    expectError(await invite(owner, project.id, { email: member.email, role: 'ADMIN' }), 409, 'CONFLICT');
    for (const body of [{}, { email: 'not-an-email' }, { email: uniqueEmail(), role: 'GOD' }, { email: uniqueEmail(), role: 'owner' }]) {
      const res = await invite(owner, project.id, body);
      expectError(res, 422, 'VALIDATION_ERROR');
    }
    expect(await roles(project.id)).toEqual(before);
    expect(stack.smtp.to(member.email)).toHaveLength(mailsBefore);
  });

  it('keeps nothing when the invitation cannot be mailed (503 MAIL_UNAVAILABLE)', async () => {
    const unreachable = await startStack({ env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    try {
      const { user: owner, project } = await newTenant(unreachable);
      const email = uniqueEmail();
      const res = await unreachable.http().post(`/projects/${project.id}/members`).set('Cookie', owner.cookie).send({ email });
      expectError(res, 503, 'MAIL_UNAVAILABLE');
      expect(await sql(stack, 'select 1 from users where email = ?', [email])).toHaveLength(0);
      expect(await roles(project.id)).toEqual({ [owner.email]: 'OWNER' });
    } finally {
      await unreachable.close();
    }
  });
});

describe('an invitation to an address without an account', () => {
  async function invited() {
    const { user: owner, project } = await newTenant(stack);
    const email = uniqueEmail('new');
    await invite(owner, project.id, { email }).expect(201);
    const token = linkToken(await waitForMail(stack.smtp, email, INVITE_SUBJECT), '/accept-invite');
    // Anyone signs up with the invited address and a password of their choosing.
    const taker = await signupUser(stack, email);
    return { owner, project, email, token, taker };
  }

  it('is not taken by signing up with the address: nothing of the project is reachable', async () => {
    const { owner, project, taker } = await invited();
    await expectNoAccess(taker, project.id);
    expect((await list(owner, project.id).expect(200)).body.find((m: { email: string }) => m.email === taker.email)).toMatchObject({
      pending: true,
      emailVerified: false,
    });
    await stack.http().post('/auth/login').send({ email: taker.email, password: taker.password }).expect(200);
    await expectNoAccess(taker, project.id);
  });

  it("is proven by the invitation link's token: the password set with it gives access, the taker's session ends", async () => {
    const { project, email, token, taker } = await invited();
    await stack.http().post('/auth/reset-password').send({ token, password: 'the real one' }).expect(200);
    expect((await stack.http().get('/users/@me').set('Cookie', taker.cookie)).status).toBe(401);
    await stack.http().post('/auth/login').send({ email, password: taker.password }).expect(401);
    const login = await stack.http().post('/auth/login').send({ email, password: 'the real one' }).expect(200);
    const owner = { ...taker, password: 'the real one', cookie: sessionCookie(login.headers['set-cookie']) };
    expect(await projectIds(owner)).toEqual([project.id]);
    await contacts(owner, project.id).expect(200);
  });
});

describe('PATCH /projects/{id}/members/{userId}', () => {
  it('lets an OWNER set any role and an ADMIN move others between ADMIN and MEMBER', async () => {
    const { owner, admin, member, project } = await team();
    const res = await setRole(admin, project.id, member.id, { role: 'ADMIN' }).expect(200);
    expect(res.body).toMatchObject({ userId: member.id, email: member.email, role: 'ADMIN' });
    await setRole(admin, project.id, member.id, { role: 'MEMBER' }).expect(200);
    await setRole(owner, project.id, admin.id, { role: 'OWNER' }).expect(200);
    expect(await roles(project.id)).toEqual({ [owner.email]: 'OWNER', [admin.email]: 'OWNER', [member.email]: 'MEMBER' });
    // With two OWNERs, one may step down.
    await setRole(owner, project.id, owner.id, { role: 'ADMIN' }).expect(200);
    expect((await roles(project.id))[owner.email]).toBe('ADMIN');
  });

  it('refuses what the roles do not allow, leaving every role as it was', async () => {
    const { owner, admin, member, outsider, project } = await team();
    const before = await roles(project.id);
    expectError(await setRole(admin, project.id, member.id, { role: 'OWNER' }), 403, 'FORBIDDEN');
    expectError(await setRole(admin, project.id, owner.id, { role: 'MEMBER' }), 403, 'FORBIDDEN');
    expectError(await setRole(member, project.id, member.id, { role: 'ADMIN' }), 403, 'FORBIDDEN');
    expectError(await setRole(member, project.id, admin.id, { role: 'MEMBER' }), 403, 'FORBIDDEN');
    expectError(await setRole(owner, project.id, owner.id, { role: 'ADMIN' }), 409, 'CONFLICT');
    expectError(await setRole(owner, project.id, outsider.id, { role: 'ADMIN' }), 404, 'NOT_FOUND');
    expect((await setRole(owner, project.id, 'not-a-uuid', { role: 'ADMIN' })).status).toBe(404);
    for (const body of [{}, { role: 'ROOT' }, { role: null }]) {
      expectError(await setRole(owner, project.id, member.id, body), 422, 'VALIDATION_ERROR');
    }
    await expectAccessChecks((u, id) => setRole(u, id, member.id, { role: 'ADMIN' }), project, outsider);
    expect(await roles(project.id)).toEqual(before);
  });

  it('never lets two OWNERs demote each other at once into a project without an OWNER', async () => {
    const { user: first, project } = await newTenant(stack);
    const second = await joinedUser(stack, first, project, 'OWNER');
    const results = await Promise.all([
      setRole(first, project.id, second.id, { role: 'MEMBER' }),
      setRole(second, project.id, first.id, { role: 'MEMBER' }),
    ]);
    // The loser is refused either as no longer an OWNER (403) or as the last OWNER's demoter (409).
    const [won, lost] = results.sort((a, b) => a.status - b.status);
    expect(won!.status).toBe(200);
    expect([403, 409]).toContain(lost!.status);
    expect(Object.values(await roles(project.id)).sort()).toEqual(['MEMBER', 'OWNER']);
  });
});

describe('DELETE /projects/{id}/members/{userId}', () => {
  it('lets an OWNER or ADMIN remove members; the removed user loses access at once', async () => {
    const { owner, admin, member, project } = await team();
    const res = await remove(admin, project.id, member.id).expect(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String) });
    expect((await list(member, project.id)).status).toBe(403);
    await remove(owner, project.id, admin.id).expect(200);
    expect(await roles(project.id)).toEqual({ [owner.email]: 'OWNER' });
  });

  it('lets any member leave, except the last OWNER', async () => {
    const { owner, admin, member, project } = await team();
    await remove(member, project.id, member.id).expect(200);
    await remove(admin, project.id, admin.id).expect(200);
    expectError(await remove(owner, project.id, owner.id), 409, 'CONFLICT');
    const second = await joinedUser(stack, owner, project, 'OWNER');
    await remove(owner, project.id, owner.id).expect(200);
    expect(await roles(project.id)).toEqual({ [second.email]: 'OWNER' });
  });

  it('refuses what the roles do not allow, keeping every member', async () => {
    const { owner, admin, member, outsider, project } = await team();
    const before = await roles(project.id);
    expectError(await remove(admin, project.id, owner.id), 403, 'FORBIDDEN');
    expectError(await remove(member, project.id, admin.id), 403, 'FORBIDDEN');
    expectError(await remove(owner, project.id, outsider.id), 404, 'NOT_FOUND');
    await expectAccessChecks((u, id) => remove(u, id, member.id), project, outsider);
    expect(await roles(project.id)).toEqual(before);
  });
});
