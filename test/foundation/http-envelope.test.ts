import { startStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const expectEnvelope = (body: Record<string, unknown>, status: number, code: string) => {
  expect(body).toMatchObject({ success: false, error: { code, statusCode: status } });
  const error = body.error as Record<string, unknown>;
  expect(typeof error.message).toBe('string');
  expect(typeof error.requestId).toBe('string');
  expect(new Date(body.timestamp as string).toISOString()).toBe(body.timestamp);
};

describe('HTTP envelope', () => {
  it('answers an unknown route with 404 in the envelope and an X-Request-Id', async () => {
    const res = await stack.http().get('/no/such/route').expect(404);
    expectEnvelope(res.body, 404, 'NOT_FOUND');
    expect(res.headers['x-request-id']).toBe(res.body.error.requestId);
  });

  it('keeps a sane incoming X-Request-Id and replaces a bad one', async () => {
    const kept = await stack.http().get('/config').set('X-Request-Id', 'trace-123');
    expect(kept.headers['x-request-id']).toBe('trace-123');
    const replaced = await stack.http().get('/config').set('X-Request-Id', 'x'.repeat(300));
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('rejects malformed JSON with 400 and changes nothing', async () => {
    const res = await stack.http().post('/auth/signup').set('Content-Type', 'application/json').send('{"email": ');
    expect(res.status).toBe(400);
    expectEnvelope(res.body, 400, 'BAD_REQUEST');
  });

  it('rejects schema failures with 422 VALIDATION_ERROR and field errors, never echoing passwords', async () => {
    const res = await stack.http().post('/auth/signup').send({ email: 'not-an-email', password: 'short' });
    expect(res.status).toBe(422);
    expectEnvelope(res.body, 422, 'VALIDATION_ERROR');
    expect(res.body.error.errors).toEqual(
      expect.arrayContaining([
        { field: 'email', message: expect.any(String), code: 'invalid_string', received: 'not-an-email' },
        { field: 'password', message: expect.any(String), code: 'too_small' },
      ]),
    );
  });

  it('rejects an oversized body with 413 PAYLOAD_TOO_LARGE', async () => {
    const huge = { email: 'a@b.co', password: 'x'.repeat(3 * 1024 * 1024) };
    const res = await stack.http().post('/auth/signup').send(huge);
    expect(res.status).toBe(413);
    expectEnvelope(res.body, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers a wrong method on a known path with 405 in the envelope', async () => {
    const res = await stack.http().delete('/config');
    expect(res.status).toBe(405);
    expectEnvelope(res.body, 405, 'METHOD_NOT_ALLOWED');
  });
});
