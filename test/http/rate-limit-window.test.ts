import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { clearOfMinuteEdge } from '../helpers/minute';
import { callProbe, limitHeaders, probeRoutes } from './probe-routes';
import { newTenant } from '../helpers/tenants';

const secondsLeftInMinute = () => Math.ceil((60_000 - (Date.now() % 60_000)) / 1000);

describe('per-minute limit, API_RATE_LIMIT_PER_MINUTE=3', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { API_RATE_LIMIT_PER_MINUTE: '3' }, extraRoutes: probeRoutes });
  });
  afterAll(() => stack.close());
  beforeEach(() => clearOfMinuteEdge());

  it('allows 3 requests in a minute, then answers 429 RATE_LIMIT_EXCEEDED with Retry-After', async () => {
    const { project } = await newTenant(stack);
    for (const remaining of [2, 1, 0]) {
      const before = secondsLeftInMinute();
      const res = await callProbe(stack, project).expect(200);
      const headers = limitHeaders(res)!;
      expect(headers).toMatchObject({ limit: 3, remaining });
      // The window is the calendar minute: it resets when the minute ends.
      expect(headers.reset).toBeGreaterThanOrEqual(secondsLeftInMinute());
      expect(headers.reset).toBeLessThanOrEqual(before);
    }

    const refused = await callProbe(stack, project).expect(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body).toEqual({
      success: false,
      error: {
        code: 'RATE_LIMIT_EXCEEDED',
        message: expect.any(String),
        statusCode: 429,
        requestId: refused.headers['x-request-id'],
        details: { retryAfter },
        suggestion: expect.any(String),
      },
      timestamp: expect.any(String),
    });
    expect(limitHeaders(refused)).toEqual({ limit: 3, remaining: 0, reset: retryAfter });
  });

  it('keys the budget by project: another project is unaffected', async () => {
    const spent = (await newTenant(stack)).project;
    const other = (await newTenant(stack)).project;
    for (let i = 0; i < 3; i++) await callProbe(stack, spent).expect(200);
    await callProbe(stack, spent).expect(429);

    const res = await callProbe(stack, other).expect(200);
    expect(limitHeaders(res)).toMatchObject({ limit: 3, remaining: 2 });
  });

  it("counts a member's session-cookie requests and the secret key against one project budget", async () => {
    const { user, project } = await newTenant(stack);
    const viaCookie = () => stack.http().post('/_probe').set('Cookie', user.cookie).set('X-Project-Id', project.id).send({ ok: true });
    await viaCookie().expect(200);
    await callProbe(stack, project).expect(200);
    expect(limitHeaders(await viaCookie().expect(200))).toMatchObject({ remaining: 0 });
    await callProbe(stack, project).expect(429);
    await viaCookie().expect(429);
  });

  it('limits the real resource routes through the same pipeline (the domains API)', async () => {
    const { project } = await newTenant(stack);
    const lookup = () => stack.http().get(`/domains/${randomUUID()}`).set('Authorization', `Bearer ${project.secret}`);
    for (const remaining of [2, 1, 0]) {
      const res = await lookup();
      expect([res.status, limitHeaders(res)]).toEqual([404, expect.objectContaining({ limit: 3, remaining })]);
    }
    expect((await lookup()).status).toBe(429);
  });

  it('puts the headers on every project-scoped response, errors included, and on no other', async () => {
    const { user, project } = await newTenant(stack);
    const invalid = await stack.http().post('/_probe').set('Authorization', `Bearer ${project.secret}`).send({ ok: false });
    expect(invalid.status).toBe(422);
    expect(limitHeaders(invalid)).toMatchObject({ limit: 3, remaining: 2 });

    const badKey = await stack.http().post('/_probe').set('Authorization', 'Bearer sk_unknown').send({ ok: true });
    expect(badKey.status).toBe(401);
    expect(limitHeaders(badKey)).toBeNull();
    expect(limitHeaders(await stack.http().get('/config').expect(200))).toBeNull();
    expect(limitHeaders(await stack.http().get('/users/@me').set('Cookie', user.cookie).expect(200))).toBeNull();
  });
});

describe('per-minute limit settings', () => {
  it('defaults to 1000 requests per minute', async () => {
    const stack = await startStack({ extraRoutes: probeRoutes });
    try {
      const { project } = await newTenant(stack);
      expect(limitHeaders(await callProbe(stack, project).expect(200))).toMatchObject({ limit: 1000, remaining: 999 });
    } finally {
      await stack.close();
    }
  });

  it('is off with API_RATE_LIMIT_PER_MINUTE=0: no 429 and no headers', async () => {
    const stack = await startStack({ env: { API_RATE_LIMIT_PER_MINUTE: '0' }, extraRoutes: probeRoutes });
    try {
      const { project } = await newTenant(stack);
      for (let i = 0; i < 5; i++) {
        expect(limitHeaders(await callProbe(stack, project).expect(200))).toBeNull();
      }
    } finally {
      await stack.close();
    }
  });
});
