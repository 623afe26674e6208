import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import type { Server } from 'node:http';
import { createApp } from '../../src/app/app';
import { allRoutes } from '../../src/app/routes';
import type { Deps } from '../../src/deps';
import { defineRoute } from '../../src/http/route';
import { startStack, type TestStack } from '../helpers/stack';
import { client, tenant } from '../helpers/tenants';

/**
 * Logs an operator can trust (docs/operators.md "Logs"): a refusal the API makes on purpose (4xx) is never
 * logged as an error, however deep it came from (the database's 1,000-field limit); a failure (5xx) is, with
 * the request id the client was given.
 */
let stack: TestStack;
let server: Server;
const lines: Array<Record<string, unknown>> = [];
beforeAll(async () => {
  stack = await startStack();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const deps: Deps = { ...stack.deps, logger: pino({ level: 'info' }, sink) };
  const broken = defineRoute({
    method: 'get',
    path: '/test/broken',
    tag: 'Test',
    summary: 'Fails as a defect would',
    auth: 'none',
    responses: {},
    handler: () => {
      throw new Error('select "secret" from somewhere: connection reset');
    },
  });
  server = createApp(deps, [...allRoutes(deps), broken]).koa.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await stack?.close();
});

const ERROR = 50;
const keys = (n: number, prefix: string) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 1]));

describe('logs', () => {
  it('never logs a 4xx at error level: the 1,000-field limit refused by the database is a 422 and an info access line', async () => {
    const t = await tenant(stack);
    const c = client({ ...stack, http: () => request(server) }, t.project);
    for (let i = 0; i < 10; i++) await c.track({ email: `seed${i}@example.test`, event: 'seed', data: keys(100, `f${i}_`) }).expect(200);
    const before = lines.length;
    const refused = await c.track({ email: 'one@example.test', event: 'seed', data: { one_too_many: 1 } });
    expect([refused.status, refused.body.error.errors[0].code]).toEqual([422, 'too_many_fields']);
    const logged = lines.slice(before);
    expect(logged.filter((l) => Number(l.level) >= ERROR)).toEqual([]);
    expect(logged.filter((l) => JSON.stringify(l).includes('PWF01') || 'err' in l)).toEqual([]);
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 30, msg: 'request', status: 422, requestId: refused.body.error.requestId }),
    );
  });

  it('logs a 5xx at error level with the request id the client saw, given or made, and answers nothing of it', async () => {
    for (const given of ['trace-4f2a', undefined]) {
      const before = lines.length;
      const req = request(server).get('/test/broken');
      const res = await (given ? req.set('X-Request-Id', given) : req);
      expect(res.status).toBe(500);
      expect(JSON.stringify(res.body)).not.toContain('secret');
      const requestId = res.body.error.requestId as string;
      expect(res.headers['x-request-id']).toBe(requestId);
      if (given) expect(requestId).toBe(given);
      const errors = lines.slice(before).filter((l) => Number(l.level) >= ERROR);
      expect(errors).toEqual([
        expect.objectContaining({
          msg: 'request failed',
          requestId,
          status: 500,
          path: '/test/broken',
          err: expect.objectContaining({ message: expect.stringContaining('connection reset') }),
        }),
      ]);
    }
  });
});
