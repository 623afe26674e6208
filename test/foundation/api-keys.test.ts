import { createHash, randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { signupUser, type TestProject } from '../helpers/fixtures';
import { joinedUser } from '../helpers/members';
import { sql } from '../helpers/seed';
import { newTenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
});
afterAll(() => stack?.close());

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A secret-key route that reads, and one that writes. */
const listDomains = (project: TestProject) => stack.http().get(`/domains/project/${project.id}`);
const addDomain = () =>
  stack
    .http()
    .post('/domains')
    .send({ domain: `k-${randomUUID().slice(0, 8)}.example.test` });
/** The one public-key route. */
const track = (email = `t-${randomUUID().slice(0, 8)}@example.test`) => stack.http().post('/v1/track').send({ email, event: 'signed-up' });

const expectError = (res: { status: number; body: { error?: { code?: string } } }, status: number, code: string) => {
  expect(res.status).toBe(status);
  expect(res.body.error?.code).toBe(code);
};

const domainCount = (projectId: string) =>
  sql<{ n: number }>(stack, 'select count(*)::int as n from domains where project_id = ?', [projectId]).then((r) => r[0]!.n);
const contactCount = (projectId: string) =>
  sql<{ n: number }>(stack, 'select count(*)::int as n from contacts where project_id = ?', [projectId]).then((r) => r[0]!.n);

describe('API keys', () => {
  it('rejects a missing, malformed or unknown key with 401 INVALID_API_KEY', async () => {
    const { project } = await newTenant(stack);
    expectError(await listDomains(project), 401, 'INVALID_API_KEY');
    for (const header of ['Bearer', 'Basic abc', `Bearer sk_${'x'.repeat(32)}`, 'Bearer not-a-key', `Bearer  ${project.secret} extra`]) {
      expectError(await listDomains(project).set('Authorization', header), 401, 'INVALID_API_KEY');
    }
    expectError(await track(), 401, 'INVALID_API_KEY');
    await listDomains(project).set('Authorization', `Bearer ${project.secret}`).expect(200);
  });

  it('refuses the public key on secret routes and the secret key on /v1/track, doing nothing', async () => {
    const { project } = await newTenant(stack);
    expectError(await listDomains(project).set('Authorization', `Bearer ${project.public}`), 401, 'INVALID_API_KEY');
    expectError(await addDomain().set('Authorization', `Bearer ${project.public}`), 401, 'INVALID_API_KEY');
    expectError(await track().set('Authorization', `Bearer ${project.secret}`), 401, 'INVALID_API_KEY');
    expect(await domainCount(project.id)).toBe(0);
    expect(await contactCount(project.id)).toBe(0);

    await track().set('Authorization', `Bearer ${project.public}`).expect(200);
    expect(await contactCount(project.id)).toBe(1);
  });

  it('stores keys only as SHA-256 digests (the public key also in clear)', async () => {
    const { project } = await newTenant(stack);
    const [row] = await sql<Record<string, unknown>>(stack, 'select * from projects where id = ?', [project.id]);
    expect(row).toMatchObject({
      secret_key_digest: sha256(project.secret),
      public_key_digest: sha256(project.public),
      public_key: project.public,
    });
    expect(JSON.stringify(row)).not.toContain(project.secret);
    expect(JSON.stringify(row)).not.toContain(project.secret.slice(3));
  });

  it('stops both old keys at once when they are rotated', async () => {
    const { user, project } = await newTenant(stack);
    const rotated = await stack.http().post(`/users/@me/projects/${project.id}/regenerate-keys`).set('Cookie', user.cookie).expect(200);
    expectError(await listDomains(project).set('Authorization', `Bearer ${project.secret}`), 401, 'INVALID_API_KEY');
    expectError(await track().set('Authorization', `Bearer ${project.public}`), 401, 'INVALID_API_KEY');
    await listDomains(project).set('Authorization', `Bearer ${rotated.body.secret}`).expect(200);
    await track().set('Authorization', `Bearer ${rotated.body.public}`).expect(200);
  });

  it('answers 403 PROJECT_DISABLED to both keys of a disabled project, doing nothing; its members still read it', async () => {
    const { user, project } = await newTenant(stack);
    await sql(stack, `update projects set disabled = true, disabled_reason = 'abuse review' where id = ?`, [project.id]);
    expectError(await listDomains(project).set('Authorization', `Bearer ${project.secret}`), 403, 'PROJECT_DISABLED');
    const refused = await addDomain().set('Authorization', `Bearer ${project.secret}`);
    expectError(refused, 403, 'PROJECT_DISABLED');
    expect(refused.body.error.message).toBe('This project is suspended: abuse review');
    expectError(await track().set('Authorization', `Bearer ${project.public}`), 403, 'PROJECT_DISABLED');
    expect(await domainCount(project.id)).toBe(0);
    expect(await contactCount(project.id)).toBe(0);
    // The dashboard (docs/security.md): reads go on under the session cookie; what sends is refused (test/reputation).
    await listDomains(project).set('Cookie', user.cookie).set('X-Project-Id', project.id).expect(200);
  });
});

describe('session cookie with X-Project-Id on secret routes', () => {
  it('lets any member act on the project', async () => {
    const { user: owner, project } = await newTenant(stack);
    const member = await joinedUser(stack, owner, project, 'MEMBER');
    const created = await addDomain().set('Cookie', member.cookie).set('X-Project-Id', project.id).expect(201);
    expect(created.body.projectId).toBe(project.id);
    const listed = await listDomains(project).set('Cookie', owner.cookie).set('X-Project-Id', project.id).expect(200);
    expect(listed.body.map((d: { id: string }) => d.id)).toEqual([created.body.id]);
  });

  it('refuses a non-member with 403 and the header or the cookie alone with 401, doing nothing', async () => {
    const { user: owner, project } = await newTenant(stack);
    const outsider = await signupUser(stack);
    expectError(await addDomain().set('Cookie', outsider.cookie).set('X-Project-Id', project.id), 403, 'FORBIDDEN');
    expectError(await addDomain().set('Cookie', outsider.cookie).set('X-Project-Id', 'not-a-uuid'), 403, 'FORBIDDEN');
    expectError(await addDomain().set('Cookie', owner.cookie), 401, 'INVALID_API_KEY');
    expectError(await addDomain().set('X-Project-Id', project.id), 401, 'INVALID_API_KEY');
    expect(await domainCount(project.id)).toBe(0);
  });

  it('ends with the membership: a removed member is refused at once', async () => {
    const { user: owner, project } = await newTenant(stack);
    const member = await joinedUser(stack, owner, project, 'ADMIN');
    await listDomains(project).set('Cookie', member.cookie).set('X-Project-Id', project.id).expect(200);
    await stack.http().delete(`/projects/${project.id}/members/${member.id}`).set('Cookie', owner.cookie).expect(200);
    expectError(await listDomains(project).set('Cookie', member.cookie).set('X-Project-Id', project.id), 403, 'FORBIDDEN');
  });
});
