import { createPrivateKey, randomBytes, randomUUID } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { startStack, type TestStack } from '../helpers/stack';
import type { TestProject } from '../helpers/fixtures';
import { SecretBox } from '../../src/crypto/secret-box';
import { assertVerifiedSender, dkimKeyForSender } from '../../src/modules/domains/sender';
import { signedMessage } from '../../src/modules/emails/compose';
import { addDomain, bearer, publish, type DomainBody } from './helpers';
import { newTenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
});
afterAll(() => stack?.close());

const em = () => stack.deps.orm.em.fork();
const notVerified = { status: 403, code: 'INTERNAL_SERVER_ERROR' };

async function verify(project: TestProject, domain: DomainBody): Promise<DomainBody> {
  publish(stack, domain, 'DKIM');
  const res = await stack.http().get(`/domains/${domain.id}/verify`).set('Authorization', bearer(project)).expect(200);
  expect(res.body.verified).toBe(true);
  return res.body as DomainBody;
}

describe('assertVerifiedSender', () => {
  it('refuses a pending domain with 403 INTERNAL_SERVER_ERROR and accepts it once verified', async () => {
    const { project } = await newTenant(stack);
    const domain = await addDomain(stack, project);
    await expect(assertVerifiedSender(em(), project.id, `hello@${domain.domain}`)).rejects.toMatchObject(notVerified);
    await verify(project, domain);
    expect((await assertVerifiedSender(em(), project.id, `Hello@${domain.domain.toUpperCase()}`)).id).toBe(domain.id);
  });

  it("refuses another project's verified domain, a subdomain, an unknown domain and a malformed address", async () => {
    const a = await newTenant(stack);
    const b = await newTenant(stack);
    const domain = await verify(a.project, await addDomain(stack, a.project));
    await expect(assertVerifiedSender(em(), b.project.id, `hello@${domain.domain}`)).rejects.toMatchObject(notVerified);
    for (const from of [`hello@news.${domain.domain}`, 'hello@unknown.example.test', 'no-at-sign']) {
      await expect(assertVerifiedSender(em(), a.project.id, from)).rejects.toMatchObject(notVerified);
    }
  });
});

describe('DKIM signing key', () => {
  it('signs mail that verifies against the published record', async () => {
    const { project } = await newTenant(stack);
    const domain = await verify(project, await addDomain(stack, project));
    const from = `hello@${domain.domain}`;
    const key = await dkimKeyForSender(em(), stack.deps.config, project.id, from);
    expect(key).toMatchObject({ domainName: domain.domain, keySelector: 'postwire' });

    const to = `reader-${randomBytes(4).toString('hex')}@example.test`;
    const message = await signedMessage(
      { id: randomUUID(), from: { email: from }, to: { email: to }, subject: 'Signed', html: '<p>Hello</p>', text: 'Hello' },
      { ...key!, privateKey: createPrivateKey(key!.privateKey) },
    );
    await stack.deps.mailer.send(message.envelope, message.raw);
    const mail = await stack.smtp.waitFor((m) => m.to.includes(to));
    // DKIM verification only looks up the selector's TXT record.
    const result = await dkimVerify(Buffer.from(mail.raw), { resolver: (name: string) => stack.deps.dns.resolveTxt(name) });
    expect(result.results.map((r) => r.status.result)).toEqual(['pass']);
  });

  it('is null for a domain the project does not have', async () => {
    const { project } = await newTenant(stack);
    expect(await dkimKeyForSender(em(), stack.deps.config, project.id, 'a@nowhere.example.test')).toBeNull();
  });
});

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32).toString('hex'));

  it('opens what it sealed, only for the same context and key', () => {
    const sealed = box.seal('secret value', 'dkim:1');
    expect(sealed).not.toContain('secret');
    expect(box.open(sealed, 'dkim:1')).toBe('secret value');
    expect(() => box.open(sealed, 'dkim:2')).toThrow();
    expect(() => new SecretBox(randomBytes(32).toString('hex')).open(sealed, 'dkim:1')).toThrow();
  });

  it('refuses a tampered value', () => {
    const [version, iv, tag, data] = box.seal('secret value', 'ctx').split('.');
    const flipped = Buffer.from(data!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open([version, iv, tag, flipped.toString('base64url')].join('.'), 'ctx')).toThrow();
    expect(() => box.open('plain text', 'ctx')).toThrow();
  });
});
