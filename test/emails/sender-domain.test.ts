import { startStack, type TestStack } from '../helpers/stack';
import { bearer, recordOf } from '../domains/helpers';
import { recipient, send } from './helpers';
import { senderTenant } from '../helpers/tenants';

// /v1/send trusts a verified sender domain in memory for a few seconds; what this process changes counts at once.
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
});
afterAll(() => stack?.close());

const mail = (from: string) => ({ to: recipient(), from, subject: 'S', body: 'B' });

describe('the sender domain of /v1/send', () => {
  it('is refused on the next request once the domain is deleted', async () => {
    const s = await senderTenant(stack);
    await send(stack, s.project, mail(s.from)).expect(200);
    await send(stack, s.project, mail(s.from.toUpperCase())).expect(200);
    await stack.http().delete(`/domains/${s.domainBody.id}`).set('Authorization', bearer(s.project)).expect(204);
    for (const from of [s.from, s.from.toUpperCase()]) {
      expect((await send(stack, s.project, mail(from)).expect(403)).body.error.code).toBe('INTERNAL_SERVER_ERROR');
    }
  });

  it('is refused on the next request once a check finds its DKIM record gone', async () => {
    const s = await senderTenant(stack);
    await send(stack, s.project, mail(s.from)).expect(200);
    stack.dns.remove(recordOf(s.domainBody, 'DKIM').name);
    const res = await stack.http().get(`/domains/${s.domainBody.id}/verify`).set('Authorization', bearer(s.project)).expect(200);
    expect(res.body.verified).toBe(false);
    await send(stack, s.project, mail(s.from)).expect(403);
  });
});
