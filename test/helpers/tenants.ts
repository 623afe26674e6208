import type { ApiTarget } from './stack';
import { createProject, signupUser, type TestProject, type TestUser } from './fixtures';
import { addDomain, bearer, publish, type DomainBody } from '../domains/helpers';

/**
 * The test factory: every test makes its own tenant here, so tests never see each other's data and every
 * area builds tenants, clients and verified sender domains one way.
 */

/** A fresh user owning a fresh project, as a user signing up would make them. */
export async function newTenant(stack: ApiTarget): Promise<{ user: TestUser; project: TestProject }> {
  const user = await signupUser(stack);
  return { user, project: await createProject(stack, user) };
}

/** Requests of one project's integration: `secret` and `public` carry its keys. */
export function client(stack: ApiTarget, project: TestProject) {
  const auth = (key: string) => `Bearer ${key}`;
  return {
    get: (path: string) => stack.http().get(path).set('Authorization', auth(project.secret)),
    post: (path: string) => stack.http().post(path).set('Authorization', auth(project.secret)),
    put: (path: string) => stack.http().put(path).set('Authorization', auth(project.secret)),
    patch: (path: string) => stack.http().patch(path).set('Authorization', auth(project.secret)),
    delete: (path: string) => stack.http().delete(path).set('Authorization', auth(project.secret)),
    track: (body: object) => stack.http().post('/v1/track').set('Authorization', auth(project.public)).send(body),
  };
}

export type Client = ReturnType<typeof client>;

export interface Tenant {
  /** The project's OWNER. */
  user: TestUser;
  project: TestProject;
  c: Client;
}

/** A fresh user owning a fresh project, with the project's client. */
export async function tenant(stack: ApiTarget): Promise<Tenant> {
  const { user, project } = await newTenant(stack);
  return { user, project, c: client(stack, project) };
}

/** Sets the project's frequency cap (docs/projects.md "Frequency cap") as its owner does, in the settings. */
export async function setFrequencyCap(stack: ApiTarget, t: Tenant, cap: { maxEmails: number; windowDays: number }): Promise<void> {
  await stack.http().patch(`/users/@me/projects/${t.project.id}`).set('Cookie', t.user.cookie).send({ frequencyCap: cap }).expect(200);
}

/** Sets the project's monthly caps by category (docs/billing.md) as its owner does. */
export async function setBillingLimits(stack: ApiTarget, t: Tenant, limits: Record<string, number | null>): Promise<void> {
  await stack.http().put(`/users/@me/projects/${t.project.id}/billing-limits`).set('Cookie', t.user.cookie).send({ limits }).expect(200);
}

/** A domain of the project that passed verification (as added): its DKIM record served by the stack's DNS server. */
export async function verifiedDomain(stack: ApiTarget, project: TestProject): Promise<DomainBody> {
  const domain = await addDomain(stack, project);
  publish(stack, domain, 'DKIM');
  const res = await stack.http().get(`/domains/${domain.id}/verify`).set('Authorization', bearer(project)).expect(200);
  if (!res.body.verified) throw new Error(`domain ${domain.domain} did not verify`);
  return domain;
}

export interface SenderTenant extends Tenant {
  /** The name of the project's verified domain. */
  domain: string;
  domainBody: DomainBody;
  /** An address on the verified domain. */
  from: string;
}

/** A fresh tenant whose sender domain is verified against the stack's DNS server; it sends from `<local>@`. */
export async function senderTenant(stack: ApiTarget, local = 'hello'): Promise<SenderTenant> {
  const t = await tenant(stack);
  const domainBody = await verifiedDomain(stack, t.project);
  return { ...t, domain: domainBody.domain, domainBody, from: `${local}@${domainBody.domain}` };
}

/** A sender tenant whose campaigns come from `news@` its domain. */
export const campaignTenant = (stack: ApiTarget): Promise<SenderTenant> => senderTenant(stack, 'news');
