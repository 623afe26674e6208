import { Client, Connection } from '@temporalio/client';
import { startStack, type TestStack } from '../helpers/stack';
import { bearer, listDomains, uniqueDomain } from './helpers';
import { newTenant } from '../helpers/tenants';

// Nothing listens on port 1: every Temporal call fails as it would during an outage.
const connection = Connection.lazy({ address: '127.0.0.1:1' });
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ temporal: { client: new Client({ connection }), taskQueue: 'unreachable', searchAttributes: true } });
});
afterAll(async () => {
  await stack?.close();
  await connection.close();
});

describe('POST /domains while Temporal is unreachable', () => {
  it('answers 503 and keeps no domain without its background check', async () => {
    const { project } = await newTenant(stack);
    const res = await stack.http().post('/domains').set('Authorization', bearer(project)).send({ domain: uniqueDomain() });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', statusCode: 503 });
    expect(await listDomains(stack, project)).toEqual([]);
  });
});
