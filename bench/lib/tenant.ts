import { randomUUID } from 'node:crypto';

export interface BenchTenant {
  /** `Cookie` header value carrying the session. */
  cookie: string;
  projectId: string;
  secret: string;
  /** The project's public key (pk_…), for /v1/track. */
  publicKey: string;
}

async function expectOk(res: Response, what: string): Promise<Record<string, unknown>> {
  if (!res.ok) throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** A fresh user and project, made through the API as a person would, so that benchmarks need no database access. */
export async function createTenant(baseUrl: string): Promise<BenchTenant> {
  const signup = await fetch(`${baseUrl}/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-${randomUUID()}@example.test`, password: 'bench password 123' }),
  });
  await expectOk(signup, 'POST /auth/signup');
  const cookie = signup.headers
    .getSetCookie()
    .find((c) => c.startsWith('postwire_session='))
    ?.split(';')[0];
  if (!cookie) throw new Error('POST /auth/signup set no session cookie');
  const project = await expectOk(
    await fetch(`${baseUrl}/users/@me/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ name: 'Benchmark' }),
    }),
    'POST /users/@me/projects',
  );
  return { cookie, projectId: String(project.id), secret: String(project.secret), publicKey: String(project.public) };
}
