import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startStack, type TestStack } from '../helpers/stack';
import { gatewayFor, startWorker } from '../helpers/temporal';
import { timeSkippingEnv } from '../helpers/temporal-env';
import { sleeping } from '../helpers/time-skipping';
import { waitFor } from '../helpers/wait';
import { domainVerifyWorkflowId } from '../../workflows/domain-verify/ids';
import { startDomainVerify } from '../../src/temporal/domain-verify';
import type { TestProject } from '../helpers/fixtures';
import { addDomain, bearer, getDomain, publish, recordOf } from './helpers';
import { newTenant } from '../helpers/tenants';

const MINUTE = 60_000;

let env: TestWorkflowEnvironment;
let stack: TestStack;

beforeAll(async () => {
  env = await timeSkippingEnv();
  stack = await startStack({
    temporal: gatewayFor(env, `domains-${randomBytes(4).toString('hex')}`),
    worker: (deps) => startWorker(deps, env.nativeConnection),
  });
});

afterAll(async () => {
  await stack?.close();
  await env?.teardown();
});

const handleOf = (domainId: string) => env.client.workflow.getHandle(domainVerifyWorkflowId(domainId));
/** Checks the current run has completed, read from its history. */
async function checksDone(domainId: string): Promise<number> {
  const history = await handleOf(domainId).fetchHistory();
  return (history.events ?? []).filter((e) => e.activityTaskCompletedEventAttributes).length;
}

const checked = (project: TestProject, id: string) =>
  waitFor('the first background check', async () => ((await getDomain(stack, project, id)).lastCheckedAt ? true : undefined));

describe('domain-verify workflow (time-skipping)', () => {
  it('verifies the domain at the first 5-minute check after its DKIM record appears, without real waiting', async () => {
    const started = Date.now();
    const { project } = await newTenant(stack);
    const domain = await addDomain(stack, project);
    await checked(project, domain.id);

    await env.sleep(12 * MINUTE);
    // Checks at 0, 5 and 10 minutes, all before the record exists; the next is due at 15.
    await waitFor('three checks', async () => ((await checksDone(domain.id)) >= 3 ? true : undefined));
    expect(await checksDone(domain.id)).toBe(3);
    publish(stack, domain, 'DKIM');
    expect(await getDomain(stack, project, domain.id)).toMatchObject({ verified: false });

    await env.sleep(3.5 * MINUTE);
    const verified = await waitFor('verification', async () => {
      const d = await getDomain(stack, project, domain.id);
      return d.verified ? d : undefined;
    });
    expect(recordOf(verified, 'DKIM').status).toBe('VERIFIED');
    expect(await checksDone(domain.id)).toBe(4);
    expect(Date.now() - started).toBeLessThan(30_000);

    stack.dns.remove(recordOf(domain, 'DKIM').name);
    await env.sleep(5 * MINUTE);
    await waitFor('the return to pending', async () => ((await getDomain(stack, project, domain.id)).verified ? undefined : true));
  });

  it('is terminated by DELETE /domains/{id}', async () => {
    const { project } = await newTenant(stack);
    const domain = await addDomain(stack, project);
    await checked(project, domain.id);
    await sleeping(env, domainVerifyWorkflowId(domain.id));
    await stack.http().delete(`/domains/${domain.id}`).set('Authorization', bearer(project)).expect(204);
    expect((await handleOf(domain.id).describe()).status.name).toBe('TERMINATED');
  });

  it('ends by itself at its next check when the domain row is gone', async () => {
    const { project } = await newTenant(stack);
    const domain = await addDomain(stack, project);
    await checked(project, domain.id);
    // As when Temporal was unreachable during DELETE: the row is gone but the loop still runs.
    await stack.deps.orm.em.fork().getConnection().execute('delete from domains where id = ?', [domain.id]);
    await handleOf(domain.id).result();
    expect((await handleOf(domain.id).describe()).status.name).toBe('COMPLETED');
  });

  it('continues as new, keeping the same workflow id', async () => {
    const { project } = await newTenant(stack);
    const domain = await addDomain(stack, project);
    await checked(project, domain.id);
    const first = await handleOf(domain.id).describe();

    await env.sleep(2 * 60 * MINUTE + MINUTE);
    const latest = await waitFor('a new run', async () => {
      const d = await handleOf(domain.id).describe();
      return d.runId !== first.runId ? d : undefined;
    });
    expect(latest.status.name).toBe('RUNNING');
    const firstRun = env.client.workflow.getHandle(domainVerifyWorkflowId(domain.id), first.runId);
    expect((await firstRun.describe()).status.name).toBe('CONTINUED_AS_NEW');
  });

  it('keeps a single run when the start is repeated', async () => {
    const { project } = await newTenant(stack);
    const domain = await addDomain(stack, project);
    const before = await handleOf(domain.id).describe();
    await startDomainVerify(stack.deps.temporal, { id: domain.id, projectId: project.id, domain: domain.domain });
    expect((await handleOf(domain.id).describe()).runId).toBe(before.runId);
  });
});
