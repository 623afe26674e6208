import { createHash } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { sessionCookie, signupUser, uniqueEmail, type TestUser } from '../helpers/fixtures';
import { linkToken, parseMail, waitForMail } from '../helpers/mail';
import { waitFor } from '../helpers/wait';
import { sql } from '../helpers/seed';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const VERIFY_SUBJECT = /^Verify your email address$/;
const RESET_SUBJECT = /^Reset your password$/;
/** Nothing listens on the discard port of loopback: connections are refused at once. */
const UNREACHABLE_SMTP = 'smtp://127.0.0.1:9';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const me = (cookie: string) => stack.http().get('/users/@me').set('Cookie', cookie);
const tokensOf = (userId: string) =>
  sql<{ purpose: string; token_digest: string; expires_at: Date; used_at: Date | null; created_at: Date }>(
    stack,
    'select purpose, token_digest, expires_at, used_at, created_at from user_tokens where user_id = ? order by created_at',
    [userId],
  );
const userRow = (id: string) =>
  sql<{ password_hash: string | null; email_verified: boolean; session_version: number }>(
    stack,
    'select password_hash, email_verified, session_version from users where id = ?',
    [id],
  ).then((rows) => rows[0]!);

/** Lets a new mail of the same purpose go out now: the resend interval counts from the last token. */
const ageTokens = (userId: string) =>
  sql(stack, `update user_tokens set created_at = created_at - interval '2 minutes' where user_id = ?`, [userId]);

/** The link opened in a session of its own account, the only place where it verifies (test/account/takeover.test.ts). */
const verifyIn = (user: TestUser, token: string) => stack.http().post('/auth/verify-email').set('Cookie', user.cookie).send({ token });

const expectInvalidToken = (res: { status: number; body: { error?: { code?: string } } }) => {
  expect(res.status).toBe(400);
  expect(res.body.error?.code).toBe('INVALID_TOKEN');
};

async function verificationToken(user: TestUser): Promise<string> {
  return linkToken(await waitForMail(stack.smtp, user.email, VERIFY_SUBJECT), '/verify-email');
}

describe('email verification', () => {
  it('signup mails a verification link built on PUBLIC_URL; its token verifies the address once', async () => {
    const user = await signupUser(stack);
    expect((await me(user.cookie).expect(200)).body.emailVerified).toBe(false);

    const mail = await waitForMail(stack.smtp, user.email, VERIFY_SUBJECT);
    expect(mail.from?.address).toBe('no-reply@postwire.local');
    expect(mail.text).toContain('http://localhost:3000/app/#/verify-email?token=');
    expect(mail.html).toContain('http://localhost:3000/app/#/verify-email?token=');
    const token = linkToken(mail, '/verify-email');

    const res = await verifyIn(user, token).expect(200);
    expect(res.body).toEqual({ id: user.id, email: user.email, emailVerified: true });
    expect((await me(user.cookie).expect(200)).body.emailVerified).toBe(true);

    expectInvalidToken(await verifyIn(user, token));
  });

  it('stores only the SHA-256 digest of the token, expiring after 24 hours', async () => {
    const user = await signupUser(stack);
    const token = await verificationToken(user);
    const [row] = await tokensOf(user.id);
    expect(row).toMatchObject({ purpose: 'VERIFY_EMAIL', token_digest: sha256(token), used_at: null });
    const lifetime = new Date(row!.expires_at).getTime() - new Date(row!.created_at).getTime();
    expect(Math.abs(lifetime - 24 * 3600_000)).toBeLessThan(5_000);
    const dump = JSON.stringify(await sql(stack, 'select * from user_tokens where user_id = ?', [user.id]));
    expect(dump).not.toContain(token);
  });

  it('refuses an expired token and leaves the user unverified', async () => {
    const user = await signupUser(stack);
    const token = await verificationToken(user);
    await sql(stack, `update user_tokens set expires_at = now() - interval '1 second' where user_id = ?`, [user.id]);
    expectInvalidToken(await verifyIn(user, token));
    expect((await userRow(user.id)).email_verified).toBe(false);
  });

  it('refuses unknown tokens, a reset token, and bad bodies, changing nothing', async () => {
    const user = await signupUser(stack);
    await verificationToken(user);
    expectInvalidToken(await verifyIn(user, 'not-a-token'));
    const bad = await stack.http().post('/auth/verify-email').send({});
    expect(bad.status).toBe(422);
    expect(bad.body.error.errors[0]).toMatchObject({ field: 'token' });
    expect((await stack.http().post('/auth/verify-email').send({ token: 42 })).status).toBe(422);

    await stack.http().post('/auth/request-password-reset').send({ email: user.email }).expect(200);
    const resetToken = linkToken(await waitForMail(stack.smtp, user.email, RESET_SUBJECT), '/reset-password');
    expectInvalidToken(await verifyIn(user, resetToken));

    expect((await userRow(user.id)).email_verified).toBe(false);
    expect((await tokensOf(user.id)).every((t) => t.used_at === null)).toBe(true);
  });

  it('resends on request, at most once a minute, and not once verified', async () => {
    const user = await signupUser(stack);
    await verificationToken(user);
    expect((await stack.http().post('/auth/request-verification')).status).toBe(401);

    const early = await stack.http().post('/auth/request-verification').set('Cookie', user.cookie);
    expect(early.status).toBe(429);
    expect(early.body.error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', details: { retryAfter: expect.any(Number) } });
    expect(Number(early.headers['retry-after'])).toBeGreaterThan(0);
    expect(await tokensOf(user.id)).toHaveLength(1);

    await ageTokens(user.id);
    const sent = await stack.http().post('/auth/request-verification').set('Cookie', user.cookie).expect(200);
    expect(sent.body).toEqual({ success: true, message: 'Verification email sent' });
    await waitFor('the second verification mail', async () => (stack.smtp.to(user.email).length === 2 ? true : undefined));
    expect(await tokensOf(user.id)).toHaveLength(2);

    // Either link works; using one spends the other.
    const [first, second] = await Promise.all(stack.smtp.to(user.email).map(async (m) => linkToken(await parseMail(m), '/verify-email')));
    await verifyIn(user, second).expect(200);
    expectInvalidToken(await verifyIn(user, first));

    await ageTokens(user.id);
    const again = await stack.http().post('/auth/request-verification').set('Cookie', user.cookie).expect(200);
    expect(again.body).toEqual({ success: true, message: 'Email already verified' });
    expect(await tokensOf(user.id)).toHaveLength(2);
  });

  it('answers 503 MAIL_UNAVAILABLE when the mail server refuses, storing no token', async () => {
    const unreachable = await startStack({ env: { SMTP_URL: UNREACHABLE_SMTP } });
    try {
      const user = await signupUser(unreachable);
      await ageTokens(user.id);
      const res = await unreachable.http().post('/auth/request-verification').set('Cookie', user.cookie);
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('MAIL_UNAVAILABLE');
      expect(await tokensOf(user.id)).toHaveLength(1);
    } finally {
      await unreachable.close();
    }
  });
});

describe('password reset', () => {
  it('mails a one-hour link; the new password works, the old one and older sessions do not', async () => {
    const user = await signupUser(stack);
    const res = await stack.http().post('/auth/request-password-reset').send({ email: user.email.toUpperCase() }).expect(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String) });

    const mail = await waitForMail(stack.smtp, user.email, RESET_SUBJECT);
    const token = linkToken(mail, '/reset-password');
    const row = (await tokensOf(user.id)).find((t) => t.purpose === 'RESET_PASSWORD')!;
    expect(row.token_digest).toBe(sha256(token));
    const lifetime = new Date(row.expires_at).getTime() - new Date(row.created_at).getTime();
    expect(Math.abs(lifetime - 3600_000)).toBeLessThan(5_000);

    const password = 'a brand new password';
    const done = await stack.http().post('/auth/reset-password').send({ token, password }).expect(200);
    expect(done.body).toEqual({ success: true, message: expect.any(String) });

    expect((await stack.http().post('/auth/login').send({ email: user.email, password: user.password })).status).toBe(401);
    const login = await stack.http().post('/auth/login').send({ email: user.email, password }).expect(200);
    expect(login.body.emailVerified).toBe(true);
    expect((await me(user.cookie)).status).toBe(401);
    await me(sessionCookie(login.headers['set-cookie'])).expect(200);

    expectInvalidToken(await stack.http().post('/auth/reset-password').send({ token, password: 'yet another password' }));
    await stack.http().post('/auth/login').send({ email: user.email, password }).expect(200);
  });

  it('answers an unknown address exactly like a known one and sends nothing', async () => {
    const email = uniqueEmail('nobody');
    const res = await stack.http().post('/auth/request-password-reset').send({ email }).expect(200);
    const known = await signupUser(stack);
    const knownRes = await stack.http().post('/auth/request-password-reset').send({ email: known.email }).expect(200);
    expect(res.body).toEqual(knownRes.body);
    await waitForMail(stack.smtp, known.email, RESET_SUBJECT);
    expect(stack.smtp.to(email)).toHaveLength(0);
    expect(await sql(stack, 'select 1 from users where email = ?', [email])).toHaveLength(0);
  });

  it('drops a repeat within a minute silently', async () => {
    const user = await signupUser(stack);
    await stack.http().post('/auth/request-password-reset').send({ email: user.email }).expect(200);
    await stack.http().post('/auth/request-password-reset').send({ email: user.email }).expect(200);
    await waitForMail(stack.smtp, user.email, RESET_SUBJECT);
    expect((await tokensOf(user.id)).filter((t) => t.purpose === 'RESET_PASSWORD')).toHaveLength(1);
  });

  it('refuses expired and unknown tokens and bad input, leaving the password as it was', async () => {
    const user = await signupUser(stack);
    await stack.http().post('/auth/request-password-reset').send({ email: user.email }).expect(200);
    const token = linkToken(await waitForMail(stack.smtp, user.email, RESET_SUBJECT), '/reset-password');
    const before = await userRow(user.id);

    const short = await stack.http().post('/auth/reset-password').send({ token, password: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.error.errors).toEqual([expect.objectContaining({ field: 'password', code: 'too_small' })]);
    expect((await stack.http().post('/auth/reset-password').send({ password: 'long enough password' })).status).toBe(422);
    expect((await stack.http().post('/auth/request-password-reset').send({ email: 'not-an-email' })).status).toBe(422);
    expectInvalidToken(await stack.http().post('/auth/reset-password').send({ token: 'nope', password: 'long enough password' }));

    await sql(stack, `update user_tokens set expires_at = now() - interval '1 second' where user_id = ? and purpose = 'RESET_PASSWORD'`, [
      user.id,
    ]);
    expectInvalidToken(await stack.http().post('/auth/reset-password').send({ token, password: 'long enough password' }));

    expect(await userRow(user.id)).toEqual(before);
    await me(user.cookie).expect(200);
    await stack.http().post('/auth/login').send({ email: user.email, password: user.password }).expect(200);
  });

  it("takes a verification link's token too: it sets the password, verifies the address and ends every session", async () => {
    const user = await signupUser(stack);
    const token = await verificationToken(user);
    await stack.http().post('/auth/reset-password').send({ token, password: 'a password of my own' }).expect(200);
    expect(await userRow(user.id)).toMatchObject({ email_verified: true, session_version: 1 });
    expect((await me(user.cookie)).status).toBe(401);
    await stack.http().post('/auth/login').send({ email: user.email, password: 'a password of my own' }).expect(200);
    expectInvalidToken(await verifyIn(user, token));
  });
});

describe('GET /auth/oauth-config', () => {
  it('lists no providers: none can be configured on this deployment', async () => {
    const res = await stack.http().get('/auth/oauth-config').expect(200);
    expect(res.body).toEqual({ providers: [] });
  });
});
