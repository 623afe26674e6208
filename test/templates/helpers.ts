import type { TestStack } from '../helpers/stack';
import type { TestProject } from '../helpers/fixtures';
import { addDomain, bearer, publish } from '../domains/helpers';

/** A domain of the project that passed verification: its DKIM record served by the stack's DNS server. */
export async function verifiedDomain(stack: TestStack, project: TestProject): Promise<string> {
  const domain = await addDomain(stack, project);
  publish(stack, domain, 'DKIM');
  const res = await stack.http().get(`/domains/${domain.id}/verify`).set('Authorization', bearer(project)).expect(200);
  if (!res.body.verified) throw new Error(`domain ${domain.domain} did not verify`);
  return domain.domain;
}
