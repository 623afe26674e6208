import { startStack, type TestStack } from '../helpers/stack';
import { newTenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

type Res = { status: number; headers: Record<string, string | undefined> };

const expectNoSniff = (res: Res) => {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
};

describe('security headers', () => {
  it('are on every response: answers, errors, 404 and 405, none of them framed as pages', async () => {
    const { project } = await newTenant(stack);
    const responses: Array<[Res, number]> = [
      [await stack.http().get('/config'), 200],
      [await stack.http().get('/contacts').set('Authorization', `Bearer ${project.secret}`), 200],
      [await stack.http().get('/contacts'), 401],
      [await stack.http().post('/contacts').set('Authorization', `Bearer ${project.secret}`).send({}), 400],
      [await stack.http().get('/no/such/route'), 404],
      [await stack.http().put('/config'), 405],
      [await stack.http().get('/openapi.json'), 200],
    ];
    for (const [res, status] of responses) {
      expect(res.status).toBe(status);
      expectNoSniff(res);
      expect(res.headers['content-security-policy']).toBeUndefined();
    }
  });

  it('on HTML pages add a policy that allows no script, no framing and no outside resource', async () => {
    const res = await stack.http().get('/unsubscribe/forged-token');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expectNoSniff(res);
    expect(res.headers['x-frame-options']).toBe('DENY');
    const policy = Object.fromEntries(
      res.headers['content-security-policy']!.split(';').map((d: string) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    expect(policy).toMatchObject({ 'default-src': "'none'", 'frame-ancestors': "'none'", 'form-action': "'self'", 'base-uri': "'none'" });
    expect(policy['script-src']).toBeUndefined();
  });
});
