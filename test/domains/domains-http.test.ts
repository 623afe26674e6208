import { createPublicKey } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { Domain } from '../../src/modules/domains/entities';
import { addDomain, bearer, getDomain, listDomains, publish, recordOf, uniqueDomain } from './helpers';
import { newTenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
});
afterAll(() => stack?.close());

const storedRow = (id: string) => stack.deps.orm.em.fork().findOneOrFail(Domain, { id });

describe('POST /domains', () => {
  it('adds a pending domain with a 2048-bit DKIM key and the SPF and DMARC recommendations', async () => {
    const { project } = await newTenant(stack);
    const name = uniqueDomain();
    const res = await stack.http().post('/domains').set('Authorization', bearer(project)).send({ domain: name }).expect(201);

    expect(res.body).toMatchObject({ id: expect.any(String), projectId: project.id, domain: name, verified: false, verifiedAt: null });
    expect(res.body.records).toEqual([
      {
        type: 'TXT',
        purpose: 'DKIM',
        name: `postwire._domainkey.${name}`,
        value: expect.stringMatching(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/),
        status: 'PENDING',
      },
      { type: 'TXT', purpose: 'SPF', name, value: `v=spf1 include:${stack.deps.config.SPF_INCLUDE} ~all`, status: 'PENDING' },
      { type: 'TXT', purpose: 'DMARC', name: `_dmarc.${name}`, value: 'v=DMARC1; p=none', status: 'PENDING' },
    ]);
    const p = recordOf(res.body, 'DKIM').value.split('p=')[1]!;
    const key = createPublicKey({ key: Buffer.from(p, 'base64'), format: 'der', type: 'spki' });
    expect(key.asymmetricKeyType).toBe('rsa');
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(await listDomains(stack, project)).toEqual([res.body]);
  });

  it('keeps the private key encrypted at rest', async () => {
    const { project } = await newTenant(stack);
    const domain = await addDomain(stack, project);
    const row = await storedRow(domain.id);
    expect(row.dkimPrivateKeyEncrypted).toMatch(/^v1\./);
    expect(row.dkimPrivateKeyEncrypted).not.toContain('PRIVATE KEY');
    expect(Buffer.from(row.dkimPrivateKeyEncrypted.split('.')[3]!, 'base64url').toString('latin1')).not.toContain('PRIVATE KEY');
  });

  it('stores the name lowercase, without a trailing dot, and internationalized names in xn-- form', async () => {
    const { project } = await newTenant(stack);
    const base = uniqueDomain();
    expect((await addDomain(stack, project, ` Mail.${base.toUpperCase()}. `)).domain).toBe(`mail.${base}`);
    expect((await addDomain(stack, project, 'bücher.example')).domain).toBe('xn--bcher-kva.example');
  });

  it.each([
    ['a scheme', 'https://example.com'],
    ['a path', 'example.com/mail'],
    ['a port', 'example.com:25'],
    ['an email address', 'me@example.com'],
    ['a single label', 'localhost'],
    ['an IP address', '192.0.2.1'],
    ['an empty label', 'mail..example.com'],
    ['a label starting with a hyphen', '-mail.example.com'],
    ['an underscore', 'mail_box.example.com'],
    ['a space', 'mail example.com'],
    ['a wildcard', '*.example.com'],
    ['a 64-character label', `${'a'.repeat(64)}.example.com`],
    ['more than 253 characters', `${'abcdefghi.'.repeat(25)}example.com`],
    ['an empty string', ''],
  ])('refuses %s with 422 and adds nothing', async (_what, domain) => {
    const { project } = await newTenant(stack);
    const res = await stack.http().post('/domains').set('Authorization', bearer(project)).send({ domain });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', statusCode: 422 });
    expect(res.body.error.errors).toEqual([
      expect.objectContaining({ field: 'domain', code: expect.stringMatching(/^(invalid_string|too_big)$/) }),
    ]);
    expect(await listDomains(stack, project)).toEqual([]);
  });

  it.each([
    ['a missing domain', {}],
    ['a number', { domain: 42 }],
    ['a non-object body', ['example.com']],
  ])('refuses %s with 422 and adds nothing', async (_what, body) => {
    const { project } = await newTenant(stack);
    const res = await stack.http().post('/domains').set('Authorization', bearer(project)).send(body);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(await listDomains(stack, project)).toEqual([]);
  });

  it('answers 409 for a domain the project already has, in any letter case, and keeps the first', async () => {
    const { project } = await newTenant(stack);
    const first = await addDomain(stack, project);
    const res = await stack.http().post('/domains').set('Authorization', bearer(project)).send({ domain: first.domain.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'CONFLICT', statusCode: 409, details: { domain: first.domain } });
    expect(await listDomains(stack, project)).toEqual([first]);
  });

  it('lets another project add the same domain, with its own key', async () => {
    const a = await newTenant(stack);
    const b = await newTenant(stack);
    const first = await addDomain(stack, a.project);
    const second = await addDomain(stack, b.project, first.domain);
    expect(recordOf(second, 'DKIM').value).not.toBe(recordOf(first, 'DKIM').value);
  });

  it('requires a secret key: none or a public key is 401 and adds nothing', async () => {
    const { project } = await newTenant(stack);
    const none = await stack.http().post('/domains').send({ domain: uniqueDomain() });
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('INVALID_API_KEY');
    const publicKey = await stack.http().post('/domains').set('Authorization', `Bearer ${project.public}`).send({ domain: uniqueDomain() });
    expect(publicKey.status).toBe(401);
    expect(publicKey.body.error.code).toBe('INVALID_API_KEY');
    expect(await listDomains(stack, project)).toEqual([]);
  });
});

describe('GET /domains/project/{projectId}', () => {
  it("lists only the caller's domains, newest first", async () => {
    const a = await newTenant(stack);
    const b = await newTenant(stack);
    const older = await addDomain(stack, a.project);
    const newer = await addDomain(stack, a.project);
    await addDomain(stack, b.project);
    expect((await listDomains(stack, a.project)).map((d) => d.id)).toEqual([newer.id, older.id]);
  });

  it("refuses another project's id with 403 and no data", async () => {
    const a = await newTenant(stack);
    const b = await newTenant(stack);
    await addDomain(stack, b.project);
    const res = await stack.http().get(`/domains/project/${b.project.id}`).set('Authorization', bearer(a.project));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
    expect(JSON.stringify(res.body)).not.toContain('example.test');
  });

  it('answers 404 for a malformed project id', async () => {
    const { project } = await newTenant(stack);
    const res = await stack.http().get('/domains/project/not-a-uuid').set('Authorization', bearer(project));
    expect(res.status).toBe(404);
  });

  it('is reachable by a member through the session cookie and X-Project-Id', async () => {
    const { user, project } = await newTenant(stack);
    const domain = await addDomain(stack, project);
    const res = await stack
      .http()
      .get(`/domains/project/${project.id}`)
      .set('Cookie', user.cookie)
      .set('X-Project-Id', project.id)
      .expect(200);
    expect(res.body.map((d: { id: string }) => d.id)).toEqual([domain.id]);
  });
});

describe('GET /domains/{id}', () => {
  it("returns the project's domain and hides other projects' domains behind 404", async () => {
    const a = await newTenant(stack);
    const b = await newTenant(stack);
    const domain = await addDomain(stack, a.project);
    expect(await getDomain(stack, a.project, domain.id)).toEqual(domain);
    const res = await stack.http().get(`/domains/${domain.id}`).set('Authorization', bearer(b.project));
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('DOMAIN_NOT_FOUND');
    expect(JSON.stringify(res.body)).not.toContain(domain.domain);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const { project } = await newTenant(stack);
    expect((await stack.http().get('/domains/00000000-0000-4000-8000-000000000000').set('Authorization', bearer(project))).status).toBe(
      404,
    );
    expect((await stack.http().get('/domains/nope').set('Authorization', bearer(project)).expect(404)).body.error.code).toBe(
      'DOMAIN_NOT_FOUND',
    );
  });
});

describe('GET /domains/{id}/verify', () => {
  it('stays pending while the DKIM record is missing, and records the check', async () => {
    const { project } = await newTenant(stack);
    const domain = await addDomain(stack, project);
    const res = await stack.http().get(`/domains/${domain.id}/verify`).set('Authorization', bearer(project)).expect(200);
    expect(res.body).toMatchObject({ id: domain.id, verified: false, verifiedAt: null });
    expect(res.body.lastCheckedAt).not.toBeNull();
    expect(res.body.records.map((r: { status: string }) => r.status)).toEqual(['PENDING', 'PENDING', 'PENDING']);
  });

  it('verifies once the DKIM record (served in 255-octet chunks) matches, and returns to pending when it is removed', async () => {
    const { project } = await newTenant(stack);
    const domain = await addDomain(stack, project);
    publish(stack, domain, 'DKIM');

    const verified = await stack.http().get(`/domains/${domain.id}/verify`).set('Authorization', bearer(project)).expect(200);
    expect(verified.body).toMatchObject({ verified: true, verifiedAt: expect.any(String) });
    expect(recordOf(verified.body, 'DKIM').status).toBe('VERIFIED');
    expect(recordOf(verified.body, 'SPF').status).toBe('PENDING');
    expect(await getDomain(stack, project, domain.id)).toEqual(verified.body);

    stack.dns.remove(recordOf(domain, 'DKIM').name);
    const pending = await stack.http().get(`/domains/${domain.id}/verify`).set('Authorization', bearer(project)).expect(200);
    expect(pending.body).toMatchObject({ verified: false, verifiedAt: null });
    expect(recordOf(pending.body, 'DKIM').status).toBe('PENDING');
  });

  it('accepts a record that splits the key with spaces, as some DNS consoles do', async () => {
    const { project } = await newTenant(stack);
    const domain = await addDomain(stack, project);
    const { name, value } = recordOf(domain, 'DKIM');
    stack.dns.set(name, [{ type: 'TXT', value: value.replace(/(.{100})/g, '$1 ') }]);
    const res = await stack.http().get(`/domains/${domain.id}/verify`).set('Authorization', bearer(project)).expect(200);
    expect(res.body.verified).toBe(true);
  });

  it('marks a DKIM record with another key FAILED and the domain unverified', async () => {
    const { project } = await newTenant(stack);
    const domain = await addDomain(stack, project);
    const other = await addDomain(stack, project);
    stack.dns.set(recordOf(domain, 'DKIM').name, [{ type: 'TXT', value: recordOf(other, 'DKIM').value }]);
    const res = await stack.http().get(`/domains/${domain.id}/verify`).set('Authorization', bearer(project)).expect(200);
    expect(res.body.verified).toBe(false);
    expect(recordOf(res.body, 'DKIM').status).toBe('FAILED');
  });

  it('reports SPF and DMARC on their own without gating verification', async () => {
    const { project } = await newTenant(stack);
    const domain = await addDomain(stack, project);
    publish(stack, domain, 'SPF');
    publish(stack, domain, 'DMARC');
    const res = await stack.http().get(`/domains/${domain.id}/verify`).set('Authorization', bearer(project)).expect(200);
    expect(res.body.verified).toBe(false);
    expect(res.body.records.map((r: { status: string }) => r.status)).toEqual(['PENDING', 'VERIFIED', 'VERIFIED']);

    // Two SPF records are an SPF error (RFC 7208 4.5) even when one of them is right.
    stack.dns.set(domain.domain, [
      { type: 'TXT', value: recordOf(domain, 'SPF').value },
      { type: 'TXT', value: 'v=spf1 -all' },
    ]);
    const twoSpf = await stack.http().get(`/domains/${domain.id}/verify`).set('Authorization', bearer(project)).expect(200);
    expect(recordOf(twoSpf.body, 'SPF').status).toBe('FAILED');
  });

  it("answers 404 for another project's domain and leaves it unchecked", async () => {
    const a = await newTenant(stack);
    const b = await newTenant(stack);
    const domain = await addDomain(stack, a.project);
    publish(stack, domain, 'DKIM');
    const res = await stack.http().get(`/domains/${domain.id}/verify`).set('Authorization', bearer(b.project));
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('DOMAIN_NOT_FOUND');
    expect(await getDomain(stack, a.project, domain.id)).toMatchObject({ verified: false, lastCheckedAt: null });
  });
});

describe('DELETE /domains/{id}', () => {
  it('removes the domain', async () => {
    const { project } = await newTenant(stack);
    const domain = await addDomain(stack, project);
    await stack.http().delete(`/domains/${domain.id}`).set('Authorization', bearer(project)).expect(204);
    expect((await stack.http().get(`/domains/${domain.id}`).set('Authorization', bearer(project))).status).toBe(404);
    expect(await listDomains(stack, project)).toEqual([]);
    expect((await stack.http().delete(`/domains/${domain.id}`).set('Authorization', bearer(project))).status).toBe(404);
  });

  it("answers 404 for another project's domain and keeps it", async () => {
    const a = await newTenant(stack);
    const b = await newTenant(stack);
    const domain = await addDomain(stack, a.project);
    const res = await stack.http().delete(`/domains/${domain.id}`).set('Authorization', bearer(b.project));
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('DOMAIN_NOT_FOUND');
    expect(await listDomains(stack, a.project)).toEqual([domain]);
  });

  it('answers 404 for a malformed id and 401 without a key, deleting nothing', async () => {
    const { project } = await newTenant(stack);
    const domain = await addDomain(stack, project);
    expect((await stack.http().delete('/domains/nope').set('Authorization', bearer(project))).status).toBe(404);
    expect((await stack.http().delete(`/domains/${domain.id}`)).status).toBe(401);
    expect(await listDomains(stack, project)).toEqual([domain]);
  });
});

describe('OpenAPI', () => {
  it('documents every domain route', async () => {
    const res = await stack.http().get('/openapi.json').expect(200);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/domains', '/domains/project/{projectId}', '/domains/{id}', '/domains/{id}/verify']),
    );
    expect(res.body.paths['/domains'].post.requestBody.content['application/json'].schema.required).toEqual(['domain']);
  });
});
