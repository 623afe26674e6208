import { randomUUID } from 'node:crypto';
import type { ApiTarget } from './stack';

export interface TestProject {
  id: string;
  public: string;
  secret: string;
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  /** `Cookie` header value carrying the session. */
  cookie: string;
}

export const uniqueEmail = (prefix = 'user') => `${prefix}-${randomUUID().slice(0, 8)}@example.test`;

export function sessionCookie(setCookie: string[] | string | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const cookie = list.find((c) => c.startsWith('postwire_session='));
  if (!cookie) throw new Error('no session cookie in response');
  return cookie.split(';')[0]!;
}

export async function signupUser(stack: ApiTarget, email = uniqueEmail()): Promise<TestUser> {
  const password = 'correct horse battery';
  const res = await stack.http().post('/auth/signup').send({ email, password }).expect(200);
  return { id: res.body.id, email, password, cookie: sessionCookie(res.headers['set-cookie']) };
}

export async function createProject(stack: ApiTarget, user: TestUser, name = 'Test project'): Promise<TestProject> {
  const res = await stack.http().post('/users/@me/projects').set('Cookie', user.cookie).send({ name }).expect(201);
  return { id: res.body.id, public: res.body.public, secret: res.body.secret };
}

/**
 * A base64url signature with its first character changed, so it never matches. Changing the last characters
 * may not: they can already be the replacement (1 run in 4,096 for "…AA"), and the last one's low bits are
 * padding that decoders ignore.
 */
export const tamperedSignature = (signature: string) => `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
