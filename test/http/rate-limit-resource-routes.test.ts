import { startStack, type TestStack } from '../helpers/stack';
import { uniqueEmail } from '../helpers/fixtures';
import { limitHeaders } from './probe-routes';
import { newTenant } from '../helpers/tenants';

/**
 * The real routes that opt in to a bucket, with the per-minute window off so that every limit seen is a bucket's.
 * A token refills each 100 s, so however slowly the machine runs the requests, no refill comes between them.
 */
describe('token buckets on the resource routes', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({
      env: {
        API_RATE_LIMIT_PER_MINUTE: '0',
        RATE_LIMIT_ENABLED: 'true',
        RATE_LIMIT_CONTACTS_PER_SECOND: '0.01',
        RATE_LIMIT_CONTACTS_BURST: '3',
        RATE_LIMIT_TRACK_PER_SECOND: '0.01',
        RATE_LIMIT_TRACK_BURST: '1',
      },
    });
  });
  afterAll(() => stack.close());

  it('has POST, PATCH and DELETE on /contacts share the contacts bucket, and reads draw from none', async () => {
    const { project } = await newTenant(stack);
    const auth = `Bearer ${project.secret}`;
    const created = await stack
      .http()
      .post('/contacts')
      .set('Authorization', auth)
      .send({ email: uniqueEmail('c') })
      .expect(201);
    expect(limitHeaders(created)).toMatchObject({ limit: 3, remaining: 2 });
    const patched = await stack.http().patch(`/contacts/${created.body.id}`).set('Authorization', auth).send({ subscribed: false });
    expect([patched.status, limitHeaders(patched)]).toEqual([200, expect.objectContaining({ remaining: 1 })]);
    const read = await stack.http().get('/contacts').set('Authorization', auth).expect(200);
    expect(limitHeaders(read)).toBeNull();
    await stack.http().delete(`/contacts/${created.body.id}`).set('Authorization', auth).expect(204);

    const refused = await stack
      .http()
      .post('/contacts')
      .set('Authorization', auth)
      .send({ email: uniqueEmail('c') });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', details: { retryAfter: expect.any(Number) } });
    // The wait is what is left of the 100 s the next token takes.
    expect(refused.body.error.details.retryAfter).toBeGreaterThan(50);
    expect(refused.body.error.details.retryAfter).toBeLessThanOrEqual(100);
    expect(refused.headers['retry-after']).toBe(String(refused.body.error.details.retryAfter));
  });

  it('has /v1/track draw from the track bucket of the public key’s project', async () => {
    const { project } = await newTenant(stack);
    const track = () =>
      stack
        .http()
        .post('/v1/track')
        .set('Authorization', `Bearer ${project.public}`)
        .send({ email: uniqueEmail('t'), event: 'signed-up' });
    const first = await track();
    expect([first.status, limitHeaders(first)]).toEqual([200, { limit: 1, remaining: 0, reset: 100 }]);
    expect((await track()).status).toBe(429);
  });
});
