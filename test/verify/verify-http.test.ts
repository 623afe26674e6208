import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import type { TestProject } from '../helpers/fixtures';
import type { DnsRecord } from '../../scripts/lib/dns-server';
import { newTenant } from '../helpers/tenants';

let stack: TestStack;
let project: TestProject;
beforeAll(async () => {
  stack = await startStack();
  ({ project } = await newTenant(stack));
});
afterAll(() => stack.close());

const verify = (body: unknown, key = project.secret) =>
  stack
    .http()
    .post('/v1/verify')
    .set('Authorization', `Bearer ${key}`)
    .send(body as object);

const NS: DnsRecord = { type: 'NS', ns: 'ns1.dns.example.test' };
const MX: DnsRecord = { type: 'MX', exchange: 'mx.example.test', priority: 10 };
const A: DnsRecord = { type: 'A', address: '192.0.2.10' };
const AAAA: DnsRecord = { type: 'AAAA', address: '2001:db8::10' };

/** A domain only this test uses, served by the stack's DNS server with the records given. */
function domainWith(records: DnsRecord[], name = `d-${randomUUID().slice(0, 8)}.example.test`): string {
  stack.dns.set(name, records);
  return name;
}

async function result(email: string) {
  const res = await verify({ email }).expect(200);
  expect(res.body.success).toBe(true);
  return res.body.data;
}

const CLEAN = {
  valid: true,
  isDisposable: false,
  isAlias: false,
  isTypo: false,
  isPlusAddressed: false,
  isPersonalEmail: false,
  domainExists: true,
  hasWebsite: true,
  hasMxRecords: true,
};

describe('POST /v1/verify', () => {
  it('finds nothing to flag on a business address with nameservers, MX and a website', async () => {
    const domain = domainWith([NS, MX, A]);
    const res = await verify({ email: `Ann@${domain.toUpperCase()}` }).expect(200);
    expect(res.body).toEqual({ success: true, data: { email: `ann@${domain}`, ...CLEAN, reasons: ['Email appears to be valid'] } });
  });

  it('is invalid when the domain has no nameservers, even with MX records', async () => {
    const domain = domainWith([MX, A]);
    expect(await result(`ann@${domain}`)).toMatchObject({
      valid: false,
      domainExists: false,
      hasMxRecords: true,
      reasons: [`Domain ${domain} does not exist (no nameservers)`],
    });
  });

  it('is invalid for a domain that does not exist at all', async () => {
    const domain = `missing-${randomUUID().slice(0, 8)}.example.test`;
    expect(await result(`ann@${domain}`)).toEqual({
      ...CLEAN,
      email: `ann@${domain}`,
      valid: false,
      domainExists: false,
      hasWebsite: false,
      hasMxRecords: false,
      reasons: [`Domain ${domain} does not exist (no nameservers)`],
    });
  });

  it('is invalid without MX records, and a "null MX" (RFC 7505) counts as none', async () => {
    for (const records of [
      [NS, A],
      [NS, A, { type: 'MX', exchange: '', priority: 0 } as DnsRecord],
    ]) {
      const domain = domainWith(records);
      expect(await result(`ann@${domain}`)).toMatchObject({
        valid: false,
        domainExists: true,
        hasMxRecords: false,
        reasons: [`Domain ${domain} has no MX records and cannot receive email`],
      });
    }
  });

  it("accepts a subdomain served by its parent's nameservers", async () => {
    const parent = domainWith([NS]);
    domainWith([MX, A], `mail.${parent}`);
    expect(await result(`ann@mail.${parent}`)).toMatchObject({ valid: true, domainExists: true, reasons: ['Email appears to be valid'] });
  });

  it('reports a website from an A or an AAAA record, and its absence without affecting validity', async () => {
    expect(await result(`ann@${domainWith([NS, MX, AAAA])}`)).toMatchObject({ hasWebsite: true, valid: true });
    const bare = domainWith([NS, MX]);
    expect(await result(`ann@${bare}`)).toMatchObject({
      hasWebsite: false,
      valid: true,
      reasons: [`Domain ${bare} has no website (no A or AAAA record)`],
    });
  });

  it('flags plus addressing', async () => {
    const domain = domainWith([NS, MX, A]);
    expect(await result(`ann+news@${domain}`)).toMatchObject({ ...CLEAN, isPlusAddressed: true, reasons: ['Email uses plus addressing'] });
  });

  it('flags disposable domains from the bundled list, subdomains of wildcard entries too', async () => {
    stack.dns.set('mailinator.com', [NS, MX, A]);
    expect(await result('ann@mailinator.com')).toMatchObject({
      ...CLEAN,
      isDisposable: true,
      reasons: ['Email is from a disposable email provider'],
    });
    stack.dns.set('box.33m.co', [NS, MX, A]);
    expect(await result('ann@box.33m.co')).toMatchObject({ isDisposable: true, isPersonalEmail: false });
  });

  it('flags forwarding (alias) services, including per-user subdomains', async () => {
    for (const domain of ['privaterelay.appleid.com', 'duck.com', 'mozmail.com', 'simplelogin.com', 'someone.addy.io', 'anonaddy.me']) {
      stack.dns.set(domain, [NS, MX, A]);
      const data = await result(`x1y2@${domain}`);
      expect([domain, data.isAlias]).toEqual([domain, true]);
      expect(data.reasons).toContain('Email is an alias from an email forwarding service');
    }
  });

  it('flags free providers as personal email', async () => {
    stack.dns.set('gmail.com', [NS, MX, A]);
    expect(await result('ann@gmail.com')).toMatchObject({
      ...CLEAN,
      isPersonalEmail: true,
      reasons: ['Email is from a personal (free) email provider'],
    });
  });

  it('flags a misspelt well-known provider with a suggestion', async () => {
    const data = await result('ann@gmial.com');
    expect(data).toMatchObject({ isTypo: true, suggestion: 'ann@gmail.com', isPersonalEmail: false, valid: false, domainExists: false });
    expect(data.reasons).toEqual([
      'Domain gmial.com does not exist (no nameservers)',
      'Possible typo in the domain; did you mean ann@gmail.com?',
    ]);
    expect(await result('ann@hotmial.com')).toMatchObject({ isTypo: true, suggestion: 'ann@hotmail.com' });
  });

  it('does not call unknown business domains or rare top-level domains typos', async () => {
    for (const domain of [domainWith([NS, MX, A], 'acme-corp.test'), domainWith([NS, MX, A], 'gmail-fans.example.test')]) {
      const data = await result(`ann@${domain}`);
      expect([domain, data.isTypo, 'suggestion' in data]).toEqual([domain, false, false]);
    }
  });

  it('asks only the configured resolvers: a real provider is unknown to the test DNS server', async () => {
    expect(await result('ann@outlook.com')).toMatchObject({
      domainExists: false,
      hasMxRecords: false,
      isPersonalEmail: true,
      valid: false,
    });
  });

  it('is invalid when the local part is longer than RFC 5321 allows', async () => {
    const domain = domainWith([NS, MX, A]);
    const data = await result(`${'a'.repeat(65)}@${domain}`);
    expect(data).toMatchObject({ valid: false, domainExists: true, hasMxRecords: true });
    expect(data.reasons).toEqual(['Invalid email format: the local part is at most 64 characters and the address at most 254']);
  });

  it.each([
    ['a missing email', {}],
    ['a malformed email', { email: 'not-an-email' }],
    ['a number', { email: 42 }],
    ['no body', undefined],
  ])('refuses %s with 422 VALIDATION_ERROR', async (_what, body) => {
    const res = await verify(body);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', statusCode: 422 } });
  });

  it('names the field of a malformed email with code invalid_string', async () => {
    const res = await verify({ email: 'ann@' }).expect(422);
    expect(res.body.error.errors).toEqual([expect.objectContaining({ field: 'email', code: 'invalid_string', received: 'ann@' })]);
  });

  it('refuses a public key or no key with 401 INVALID_API_KEY', async () => {
    const domain = domainWith([NS, MX, A]);
    expect((await verify({ email: `a@${domain}` }, project.public)).body.error.code).toBe('INVALID_API_KEY');
    const res = await stack
      .http()
      .post('/v1/verify')
      .send({ email: `a@${domain}` });
    expect([res.status, res.body.error.code]).toEqual([401, 'INVALID_API_KEY']);
  });
});

describe('POST /v1/verify when DNS fails', () => {
  let broken: TestStack;
  let brokenProject: TestProject;
  beforeAll(async () => {
    // A closed UDP port: every lookup fails at once with a refused connection.
    broken = await startStack({ env: { DNS_SERVERS: '127.0.0.1:9' } });
    ({ project: brokenProject } = await newTenant(broken));
  });
  afterAll(() => broken.close());

  it('says the lookups failed instead of calling the domain nonexistent without a word', async () => {
    const res = await broken
      .http()
      .post('/v1/verify')
      .set('Authorization', `Bearer ${brokenProject.secret}`)
      .send({ email: 'ann@acme.example.test' })
      .expect(200);
    expect(res.body.data).toMatchObject({ valid: false, domainExists: false });
    expect(res.body.data.reasons).toContain('A DNS lookup failed; the domain checks may be incomplete');
  });
});
