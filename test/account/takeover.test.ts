import { startStack, type TestStack } from '../helpers/stack';
import { sessionCookie, signupUser, uniqueEmail, type TestUser } from '../helpers/fixtures';
import { linkToken, waitForMail } from '../helpers/mail';
import { INVITE_SUBJECT } from '../helpers/members';
import { sql } from '../helpers/seed';
import { newTenant } from '../helpers/tenants';

/**
 * Someone signs up with an address they do not own, before or after it is invited into a project. When the
 * address's holder follows a link mailed to it, the account must become the holder's, never make the
 * impostor's session a member (docs/account-emails.md "Verification", decisions "Edges").
 */

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const VERIFY_SUBJECT = /^Verify your email address$/;
const HOLDERS_PASSWORD = 'the holder chose this';

const verify = (token: string, cookie?: string) => {
  const req = stack.http().post('/auth/verify-email');
  return (cookie ? req.set('Cookie', cookie) : req).send({ token });
};
const projectIds = async (cookie: string) =>
  (await stack.http().get('/users/@me/projects').set('Cookie', cookie).expect(200)).body.map((p: { id: string }) => p.id);
const contacts = (cookie: string, projectId: string) => stack.http().get('/contacts').set('Cookie', cookie).set('X-Project-Id', projectId);
const account = (email: string) =>
  sql<{ password_hash: string | null; email_verified: boolean; session_version: number }>(
    stack,
    'select password_hash, email_verified, session_version from users where email = ?',
    [email],
  ).then((rows) => rows[0]!);
const unusedTokens = (email: string) =>
  sql<{ n: number }>(
    stack,
    'select count(*)::int as n from user_tokens t join users u on u.id = t.user_id where u.email = ? and t.used_at is null',
    [email],
  ).then((rows) => rows[0]!.n);

async function expectNoAccess(impostor: TestUser, projectId: string) {
  expect(await projectIds(impostor.cookie)).toEqual([]);
  expect((await contacts(impostor.cookie, projectId)).status).toBe(403);
}

/** The holder clicked a mailed verification link without a session of the account (another device, say). */
async function expectRefusedWithoutChange(token: string, impostor: TestUser, projectId: string, otherSession: string) {
  const before = await account(impostor.email);
  const tokens = await unusedTokens(impostor.email);
  for (const res of [await verify(token), await verify(token, otherSession)]) {
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', suggestion: expect.stringContaining('/auth/reset-password') });
  }
  expect(await account(impostor.email)).toEqual(before);
  expect(await unusedTokens(impostor.email)).toBe(tokens);
  await expectNoAccess(impostor, projectId);
}

/** The holder sets a password with the same token: the account is theirs, the impostor is out. */
async function expectHolderTakesTheAccount(token: string, impostor: TestUser, projectId: string) {
  await stack.http().post('/auth/reset-password').send({ token, password: HOLDERS_PASSWORD }).expect(200);
  expect((await stack.http().get('/users/@me').set('Cookie', impostor.cookie)).status).toBe(401);
  expect((await contacts(impostor.cookie, projectId)).status).toBe(401);
  expect((await stack.http().post('/auth/login').send({ email: impostor.email, password: impostor.password })).status).toBe(401);
  const login = await stack.http().post('/auth/login').send({ email: impostor.email, password: HOLDERS_PASSWORD }).expect(200);
  expect(login.body.emailVerified).toBe(true);
  const holder = sessionCookie(login.headers['set-cookie']);
  expect(await projectIds(holder)).toEqual([projectId]);
  await contacts(holder, projectId).expect(200);
}

describe('an impostor who signed up with the address before it was invited', () => {
  async function setUp() {
    const { user: owner, project } = await newTenant(stack);
    const impostor = await signupUser(stack, uniqueEmail('victim'));
    await stack.http().post(`/projects/${project.id}/members`).set('Cookie', owner.cookie).send({ email: impostor.email }).expect(201);
    const invitation = linkToken(await waitForMail(stack.smtp, impostor.email, INVITE_SUBJECT), '/verify-email');
    return { owner, project, impostor, invitation };
  }

  it("gains nothing when the holder clicks the invitation's verify link", async () => {
    const { owner, project, impostor, invitation } = await setUp();
    await expectNoAccess(impostor, project.id);
    await expectRefusedWithoutChange(invitation, impostor, project.id, owner.cookie);
    await expectHolderTakesTheAccount(invitation, impostor, project.id);
  });

  it("gains nothing when the holder clicks the signup mail's verify link", async () => {
    const { owner, project, impostor } = await setUp();
    const signupLink = linkToken(await waitForMail(stack.smtp, impostor.email, VERIFY_SUBJECT), '/verify-email');
    await expectRefusedWithoutChange(signupLink, impostor, project.id, owner.cookie);
    await expectHolderTakesTheAccount(signupLink, impostor, project.id);
  });
});

describe('an impostor who signs up with the address after it was invited', () => {
  async function setUp() {
    const { user: owner, project } = await newTenant(stack);
    const email = uniqueEmail('victim');
    await stack.http().post(`/projects/${project.id}/members`).set('Cookie', owner.cookie).send({ email }).expect(201);
    const invitation = linkToken(await waitForMail(stack.smtp, email, INVITE_SUBJECT), '/accept-invite');
    const impostor = await signupUser(stack, email);
    return { owner, project, impostor, invitation };
  }

  it("gains nothing when the holder clicks the signup mail's verify link", async () => {
    const { owner, project, impostor } = await setUp();
    await expectNoAccess(impostor, project.id);
    const signupLink = linkToken(await waitForMail(stack.smtp, impostor.email, VERIFY_SUBJECT), '/verify-email');
    await expectRefusedWithoutChange(signupLink, impostor, project.id, owner.cookie);
    await expectHolderTakesTheAccount(signupLink, impostor, project.id);
  });

  it("gains nothing when the holder follows the invitation's link to set a password", async () => {
    const { project, impostor, invitation } = await setUp();
    await expectNoAccess(impostor, project.id);
    await expectHolderTakesTheAccount(invitation, impostor, project.id);
  });
});

describe("the account's own session", () => {
  it('verifies the address with the link, and activates a waiting invitation at once', async () => {
    const { user: owner, project } = await newTenant(stack);
    const user = await signupUser(stack);
    await stack.http().post(`/projects/${project.id}/members`).set('Cookie', owner.cookie).send({ email: user.email }).expect(201);
    const invitation = linkToken(await waitForMail(stack.smtp, user.email, INVITE_SUBJECT), '/verify-email');
    const res = await verify(invitation, user.cookie).expect(200);
    expect(res.body).toEqual({ id: user.id, email: user.email, emailVerified: true });
    expect(await projectIds(user.cookie)).toEqual([project.id]);
    await contacts(user.cookie, project.id).expect(200);
  });
});
