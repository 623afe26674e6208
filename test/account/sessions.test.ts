import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { startStack, type TestStack } from '../helpers/stack';
import { throwawayDatabaseUrl } from '../helpers/database';
import { pruneEndedSessions } from '../../src/auth/ended-sessions';
import { sessionCookie, signupUser, uniqueEmail } from '../helpers/fixtures';

/** The tests play the proxy in front of the API (127.0.0.1) and name each client in X-Forwarded-For. */
const PROXY = '127.0.0.1';
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ env: { TRUSTED_PROXIES: PROXY } });
});
afterAll(() => stack.close());

/** A client address of its own (as the proxy in front reports it), so that each test's per-address count is its own. */
const newClient = () =>
  `2001:db8::${randomBytes(4)
    .toString('hex')
    .replace(/(....)(....)/, '$1:$2')}`;

const login = (email: string, password: string, client: string) =>
  stack.http().post('/auth/login').set('X-Forwarded-For', client).send({ email, password });
const me = (cookie: string) => stack.http().get('/users/@me').set('Cookie', cookie);

/** The body without what differs between any two responses (request id, time). */
/** A refusal without what differs between two answered a second apart: the seconds to wait (compared apart, within 2 s). */
const comparable = (body: { error: Record<string, unknown> }) => {
  const { requestId: _, details: __, suggestion, ...error } = body.error;
  return { ...error, suggestion: String(suggestion).replace(/\d+ second/, 'N second') };
};

describe('GET /auth/logout', () => {
  it('ends the session on the server: the same cookie is refused afterwards, other sessions stay', async () => {
    const user = await signupUser(stack);
    const client = newClient();
    const other = sessionCookie((await login(user.email, user.password, client).expect(200)).headers['set-cookie']);
    await me(user.cookie).expect(200);

    const out = await stack.http().get('/auth/logout').set('Cookie', user.cookie).expect(200);
    expect(out.body).toEqual({ success: true });
    expect(String(out.headers['set-cookie'])).toMatch(/postwire_session=;/);
    expect((await me(user.cookie)).status).toBe(401);
    expect((await stack.http().get('/users/@me/projects').set('Cookie', user.cookie)).status).toBe(401);
    await me(other).expect(200);
    // A second logout with the ended cookie, or one without any cookie, is harmless.
    await stack.http().get('/auth/logout').set('Cookie', user.cookie).expect(200);
    await stack.http().get('/auth/logout').expect(200);
  });
});

describe('GET /auth/session', () => {
  const session = (cookie?: string) => {
    const req = stack.http().get('/auth/session');
    return cookie ? req.set('Cookie', cookie) : req;
  };

  it('answers the user of a live session, and null (never 401) without one, with an ended one or a forged one', async () => {
    const user = await signupUser(stack);
    const me = (await stack.http().get('/users/@me').set('Cookie', user.cookie).expect(200)).body;
    expect((await session(user.cookie).expect(200)).body).toEqual({ user: me });
    expect((await session().expect(200)).body).toEqual({ user: null });
    expect((await session('postwire_session=not-a-token').expect(200)).body).toEqual({ user: null });
    await stack.http().get('/auth/logout').set('Cookie', user.cookie).expect(200);
    expect((await session(user.cookie).expect(200)).body).toEqual({ user: null });
    // /users/@me keeps its contract: a session cookie or 401.
    expect((await stack.http().get('/users/@me').set('Cookie', user.cookie)).status).toBe(401);
  });
});

describe('ended sessions', () => {
  it('are forgotten once their tokens would have expired anyway', async () => {
    const isolated = await startStack({ env: { DATABASE_URL: await throwawayDatabaseUrl() } });
    try {
      const connection = isolated.deps.orm.em.getConnection();
      await connection.execute(
        `insert into ended_sessions ("session_id", "expires_at") values
         ('00000000-0000-4000-8000-000000000001', now() - interval '1 second'), ('00000000-0000-4000-8000-000000000002', now() + interval '1 day')`,
      );
      await pruneEndedSessions(isolated.deps.orm.em.fork(), isolated.deps.logger);
      const rows = await connection.execute<{ session_id: string }[]>('select "session_id" from ended_sessions');
      expect(rows.map((r) => r.session_id)).toEqual(['00000000-0000-4000-8000-000000000002']);
    } finally {
      await isolated.close();
    }
  });
});

describe('login throttling', () => {
  it('refuses every attempt for an account after 10 failures, the right password included, until the window passes', async () => {
    const user = await signupUser(stack);
    const client = newClient();
    for (let i = 0; i < 10; i++) expect((await login(user.email, 'wrong password', client)).status).toBe(401);

    // From any client address: the count is the account's.
    for (const from of [client, newClient()]) {
      const refused = await login(user.email, user.password, from);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(refused.body.error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', statusCode: 429, details: { retryAfter } });
      expect(refused.headers['set-cookie']).toBeUndefined();
    }
  });

  it('answers an address without an account exactly as one with an account', async () => {
    const user = await signupUser(stack);
    const unknown = uniqueEmail('nobody');
    const client = newClient();
    for (let i = 0; i < 10; i++) {
      const [known, none] = await Promise.all([login(user.email, 'wrong password', client), login(unknown, 'wrong password', client)]);
      expect([known.status, none.status]).toEqual([401, 401]);
      expect(known.body.error.message).toBe(none.body.error.message);
    }
    const [known, none] = await Promise.all([login(user.email, user.password, client), login(unknown, 'wrong password', client)]);
    expect([known.status, none.status]).toEqual([429, 429]);
    expect(comparable(known.body)).toEqual(comparable(none.body));
    expect(Math.abs(Number(known.headers['retry-after']) - Number(none.headers['retry-after']))).toBeLessThanOrEqual(2);
  });

  it('does not count successful logins', async () => {
    const user = await signupUser(stack);
    const client = newClient();
    for (let i = 0; i < 9; i++) expect((await login(user.email, 'wrong password', client)).status).toBe(401);
    for (let i = 0; i < 3; i++) await login(user.email, user.password, client).expect(200);
    expect((await login(user.email, 'wrong password', client)).status).toBe(401);
    expect((await login(user.email, user.password, client)).status).toBe(429);
  });

  it('refuses every login from a client address after 50 failures, whatever the account; other addresses log in', async () => {
    const client = newClient();
    for (let i = 0; i < 50; i++) expect((await login(uniqueEmail('guess'), 'wrong password', client)).status).toBe(401);
    const user = await signupUser(stack);
    const refused = await login(user.email, user.password, client);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(14 * 60);
    await login(user.email, user.password, newClient()).expect(200);
  });
});

describe('login throttling with its counter store failing', () => {
  it('allows logins, and still refuses wrong passwords', async () => {
    const databaseUrl = await throwawayDatabaseUrl();
    const broken = await startStack({ env: { DATABASE_URL: databaseUrl } });
    try {
      const user = await signupUser(broken);
      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query('drop table rate_limit_counters');
      await client.end();
      const attempt = (password: string) => broken.http().post('/auth/login').send({ email: user.email, password });
      for (let i = 0; i < 11; i++) expect((await attempt('wrong password')).status).toBe(401);
      await attempt(user.password).expect(200);
    } finally {
      await broken.close();
    }
  });
});

describe('client addresses: X-Forwarded-For only from TRUSTED_PROXIES', () => {
  // Loopback is 127.0.0.0/8: each test connects from addresses of its own, so its counts are its own.
  const TRUSTED = '127.0.0.2';
  const CHAIN = '10.0.0.0/8';
  let proxied: TestStack;
  beforeAll(async () => {
    proxied = await startStack({ env: { TRUSTED_PROXIES: `${TRUSTED}, ${CHAIN}` } });
  });
  afterAll(() => proxied.close());

  /** A login sent from the socket address `from`, with the headers given. */
  function loginFrom(from: string, headers: Record<string, string>, body: { email: string; password: string }) {
    const { port } = proxied.server.address() as AddressInfo;
    const payload = JSON.stringify(body);
    return new Promise<{ status: number; cookie: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          localAddress: from,
          method: 'POST',
          path: '/auth/login',
          headers: { ...headers, 'Content-Type': 'application/json' },
        },
        (res) => {
          res.resume();
          res.once('end', () => resolve({ status: res.statusCode ?? 0, cookie: String(res.headers['set-cookie'] ?? '') }));
        },
      );
      req.once('error', reject);
      req.end(payload);
    });
  }
  const guess = (from: string, forwardedFor?: string) =>
    loginFrom(from, forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}, { email: uniqueEmail('guess'), password: 'wrong password' });

  it('counts a client by its socket address: a rotating X-Forwarded-For does not escape the per-client limit', async () => {
    const attacker = '127.0.0.3';
    for (let i = 0; i < 50; i++) expect((await guess(attacker, newClient())).status).toBe(401);
    expect((await guess(attacker, newClient())).status).toBe(429);
    expect((await guess(attacker)).status).toBe(429);
  });

  it('cannot lock another address out by naming it in X-Forwarded-For', async () => {
    const [attacker, victim] = ['127.0.0.4', '127.0.0.5'];
    for (let i = 0; i < 50; i++) expect((await guess(attacker, victim)).status).toBe(401);
    const user = await signupUser(proxied);
    expect((await loginFrom(victim, {}, { email: user.email, password: user.password })).status).toBe(200);
    // Nor through a trusted proxy that reports the victim.
    expect((await loginFrom(TRUSTED, { 'X-Forwarded-For': victim }, { email: user.email, password: user.password })).status).toBe(200);
    expect((await guess(attacker, victim)).status).toBe(429);
  });

  it("honours a trusted proxy's X-Forwarded-For, read from the right through a chain of trusted proxies", async () => {
    const [client, neighbour] = [newClient(), newClient()];
    for (let i = 0; i < 50; i++) expect((await guess(TRUSTED, client)).status).toBe(401);
    expect((await guess(TRUSTED, client)).status).toBe(429);
    // What the client wrote to the left of the proxy's entry counts for nothing; another proxy in the chain is skipped.
    expect((await guess(TRUSTED, `${neighbour}, ${client}`)).status).toBe(429);
    expect((await guess(TRUSTED, `${client}, 10.1.2.3`)).status).toBe(429);
    const user = await signupUser(proxied);
    expect((await loginFrom(TRUSTED, { 'X-Forwarded-For': neighbour }, { email: user.email, password: user.password })).status).toBe(200);
  });

  it('believes X-Forwarded-Proto only from a trusted proxy: the session cookie is Secure behind TLS, not on a claim', async () => {
    const user = await signupUser(proxied);
    const credentials = { email: user.email, password: user.password };
    const https = { 'X-Forwarded-Proto': 'https' };
    expect((await loginFrom(TRUSTED, https, credentials)).cookie).toMatch(/;\s*secure/i);
    const direct = await loginFrom('127.0.0.6', https, credentials);
    expect(direct.status).toBe(200);
    expect(direct.cookie).not.toMatch(/;\s*secure/i);
  });
});
