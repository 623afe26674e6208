import { startStack, type TestStack } from '../helpers/stack';
import { startWorker } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';
import { ProjectIdKey } from '../../workflows/search-attributes';
import { domainVerifyWorkflowId } from '../../workflows/domain-verify/ids';
import { addDomain, bearer, getDomain } from './helpers';
import { newTenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ worker: startWorker, terminateWorkflows: true });
});
afterAll(() => stack?.close());

describe('domain-verify workflow (dev server)', () => {
  it('runs under a ProjectId search attribute with a summary, and DELETE stops it', async () => {
    const { client } = stack.deps.temporal;
    const { project } = await newTenant(stack);
    const domain = await addDomain(stack, project);
    const workflowId = domainVerifyWorkflowId(domain.id);

    // The real worker ran the first check as soon as the domain was added.
    await waitFor('the first check', async () => ((await getDomain(stack, project, domain.id)).lastCheckedAt ? true : undefined));

    const listed = await waitFor('the visibility record', async () => {
      const found = [];
      for await (const wf of client.workflow.list({ query: `ProjectId="${project.id}"` })) found.push(wf);
      return found.length > 0 ? found : undefined;
    });
    expect(listed.map((wf) => wf.workflowId)).toEqual([workflowId]);
    expect(listed[0]!.typedSearchAttributes.get(ProjectIdKey)).toBe(project.id);
    expect(listed[0]!.status.name).toBe('RUNNING');

    const description = await client.workflow.getHandle(workflowId).describe();
    expect(await description.staticSummary()).toBe(`Verify DNS of ${domain.domain} (project ${project.id})`);

    await stack.http().delete(`/domains/${domain.id}`).set('Authorization', bearer(project)).expect(204);
    expect((await client.workflow.getHandle(workflowId).describe()).status.name).toBe('TERMINATED');
  });
});
