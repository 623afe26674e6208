import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { senderTenant, tenant } from '../helpers/tenants';
import {
  confirmationTemplate,
  consentEvents,
  contactOf,
  createForm,
  createTopic,
  expectError,
  shownAgo,
  signupState,
  submit,
} from './helpers';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ env: { SIGNUP_LIMIT_PER_IP: '20', SIGNUP_LIMIT_PER_ADDRESS: '3' }, terminateWorkflows: true });
});
afterAll(() => stack?.close());

const FIELDS = [
  { key: 'email', label: 'Email', type: 'email', required: true },
  { key: 'data.firstName', label: 'First name', type: 'text', required: true },
  { key: 'data.profile.age', label: 'Age', type: 'number' },
  { key: 'data.terms', label: 'I agree', type: 'checkbox' },
];

describe('forms through the API', () => {
  it('are created with defaults, their URL and snippet, listed newest first, changed and deleted', async () => {
    const t = await tenant(stack);
    const form = await createForm(t, { name: 'Newsletter' });
    expect(form).toEqual({
      id: expect.any(String),
      name: 'Newsletter',
      title: 'Newsletter',
      fields: [{ key: 'email', label: 'Email', type: 'email', required: true }],
      topicIds: [],
      doubleOptIn: false,
      confirmationTemplateId: null,
      redirectUrl: null,
      successMessage: null,
      submitLabel: 'Subscribe',
      url: `http://localhost:3000/f/${form.id}`,
      embedHtml: expect.stringContaining(`action="http://localhost:3000/f/${form.id}"`),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(form.embedHtml).toContain(`<script src="http://localhost:3000/f/${form.id}/embed.js" async></script>`);
    expect(form.embedHtml).not.toMatch(/sk_|pk_/);
    const second = await createForm(t, { name: 'Second' });
    expect((await t.c.get('/forms').expect(200)).body).toMatchObject({
      data: [{ id: second.id }, { id: form.id }],
      total: 2,
      hasMore: false,
    });
    const changed = await t.c.patch(`/forms/${form.id}`).send({ title: 'Join us', successMessage: 'Welcome!', fields: FIELDS }).expect(200);
    expect(changed.body).toMatchObject({
      name: 'Newsletter',
      title: 'Join us',
      successMessage: 'Welcome!',
      fields: FIELDS.map((f) => ({ required: false, ...f })),
    });
    await t.c.delete(`/forms/${form.id}`).expect(204);
    expectError(await t.c.get(`/forms/${form.id}`), 404, 'NOT_FOUND');
  });

  it('refuse what cannot work with 422 naming the field, and save nothing', async () => {
    const t = await senderTenant(stack);
    const other = await tenant(stack);
    const theirs = await createTopic(other);
    const noLink = (await t.c.post('/templates').send({ name: 'x', from: t.from, subject: 's', body: '<p>hi</p>' }).expect(201)).body.id;
    const cases: Array<[object, string]> = [
      [{}, 'name'],
      [{ name: 'x', fields: [] }, 'fields'],
      [{ name: 'x', fields: [{ key: 'data.a', label: 'A' }] }, 'fields'],
      [{ name: 'x', fields: [{ key: 'email', label: 'E', type: 'text', required: true }] }, 'fields.0.type'],
      [{ name: 'x', fields: [{ key: 'email', label: 'E', type: 'email' }] }, 'fields.0.required'],
      [{ name: 'x', fields: [...FIELDS, { key: 'data.firstName', label: 'Again' }] }, 'fields.4.key'],
      [{ name: 'x', fields: [FIELDS[0], { key: 'data.email', label: 'Reserved' }] }, 'fields.1.key'],
      [{ name: 'x', fields: [FIELDS[0], { key: 'other', label: 'No prefix' }] }, 'fields.1.key'],
      [{ name: 'x', fields: [FIELDS[0], { key: 'data.a.b.c.d.e.f', label: 'Deep' }] }, 'fields.1.key'],
      [{ name: 'x', fields: [FIELDS[0], { key: 'data."><script>', label: 'Markup' }] }, 'fields.1.key'],
      [{ name: 'x', topicIds: [theirs.id] }, 'topicIds.0'],
      [{ name: 'x', topicIds: [randomUUID()] }, 'topicIds.0'],
      [{ name: 'x', doubleOptIn: true }, 'confirmationTemplateId'],
      [{ name: 'x', doubleOptIn: true, confirmationTemplateId: noLink }, 'confirmationTemplateId'],
      [{ name: 'x', doubleOptIn: true, confirmationTemplateId: randomUUID() }, 'confirmationTemplateId'],
      [{ name: 'x', redirectUrl: 'javascript:alert(1)' }, 'redirectUrl'],
      [{ name: 'x', redirectUrl: 'https://example.test/thanks', successMessage: 'Thanks' }, 'redirectUrl'],
    ];
    for (const [body, field] of cases) {
      const res = await t.c.post('/forms').send(body);
      expect([JSON.stringify(body), res.status, res.body.error?.errors?.map((e: { field: string }) => e.field)]).toEqual([
        JSON.stringify(body),
        422,
        expect.arrayContaining([field]),
      ]);
    }
    expect((await t.c.get('/forms').expect(200)).body.total).toBe(0);
    const form = await createForm(t);
    expectError(await t.c.patch(`/forms/${form.id}`).send({ doubleOptIn: true }), 422, 'VALIDATION_ERROR');
    expectError(await other.c.get(`/forms/${form.id}`), 404, 'NOT_FOUND');
    expectError(await other.c.patch(`/forms/${form.id}`).send({ name: 'mine' }), 404, 'NOT_FOUND');
    expectError(await other.c.delete(`/forms/${form.id}`), 404, 'NOT_FOUND');
    expect((await t.c.get(`/forms/${form.id}`).expect(200)).body).toMatchObject({ name: 'Signup', doubleOptIn: false });
  });

  it('keep their confirmation template: it cannot be deleted while a form uses it', async () => {
    const t = await senderTenant(stack);
    const template = await confirmationTemplate(t);
    const form = await createForm(t, { doubleOptIn: true, confirmationTemplateId: template });
    const res = await t.c.delete(`/templates/${template}`);
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.details).toEqual({ forms: [{ id: form.id, name: 'Signup' }] });
    expect((await t.c.get(`/templates/${template}/usage`).expect(200)).body.forms).toEqual([{ id: form.id, name: 'Signup' }]);
  });
});

describe('the public endpoint', () => {
  it('serves the hosted page with a start token, the honeypot and labelled fields, and the snippet its script', async () => {
    const t = await tenant(stack);
    const form = await createForm(t, { title: 'Join <us>', fields: FIELDS });
    const page = await stack.http().get(`/f/${form.id}`).expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.text).toContain('<title>Join &lt;us&gt;</title>');
    expect(page.text).toMatch(/name="_pw_started" value="\d+\.[\w-]{22}"/);
    expect(page.text).toMatch(
      /<div style="[^"]*left:-10000px[^"]*" aria-hidden="true"><label for="[^"]+">Leave this field empty<\/label><input [^>]*name="website"[^>]*tabindex="-1"/,
    );
    expect(page.text).toMatch(/<label for="(pw-[\w-]+)">First name<\/label><input id="\1" type="text" name="data.firstName"/);
    const script = await stack.http().get(`/f/${form.id}/embed.js`).expect(200);
    expect(script.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('no-store');
    expect(script.text).toMatch(
      new RegExp(`var t="\\d+\\.[\\w-]{22}";document.querySelectorAll\\("form\\[data-postwire-form=\\\\"${form.id}\\\\"\\]`),
    );
    for (const path of [`/f/${randomUUID()}`, '/f/not-a-form']) {
      const missing = await stack.http().get(path);
      expect([path, missing.status, missing.headers['content-type']]).toEqual([path, 404, 'text/html; charset=utf-8']);
    }
    expect((await stack.http().get(`/f/${randomUUID()}/embed.js`)).status).toBe(404);
  });

  it("takes a signup: the contact with its data, the form's topics, form.submitted; then the thank-you page or the redirect", async () => {
    const t = await tenant(stack);
    const topic = await createTopic(t, { name: 'Digest' });
    const form = await createForm(t, { fields: FIELDS, topicIds: [topic.id], successMessage: 'Welcome aboard.\n\nSee you soon.' });
    const res = await submit(stack, form.id, {
      email: ' Ann@Example.test ',
      'data.firstName': 'Ann',
      'data.profile.age': '42',
      'data.terms': 'on',
    }).expect(200);
    expect(res.text).toContain('<p>Welcome aboard.</p><p>See you soon.</p>');
    const contact = await contactOf(stack, t.project.id, 'ann@example.test');
    expect(contact).toMatchObject({ subscribed: true, data: { firstName: 'Ann', profile: { age: 42 }, terms: true } });
    expect(await consentEvents(stack, t.project.id)).toEqual([
      ['contact.topic.joined', { topicId: topic.id, topicName: 'Digest', reason: 'form' }],
      ['form.submitted', { formId: form.id, formName: 'Signup', doubleOptIn: false }],
    ]);
    await t.c.patch(`/forms/${form.id}`).send({ successMessage: null, redirectUrl: 'https://shop.example.test/thanks' }).expect(200);
    const redirected = await submit(stack, form.id, { email: 'bob@example.test', 'data.firstName': 'Bob' }).expect(303);
    expect(redirected.headers.location).toBe('https://shop.example.test/thanks');
    expect(await contactOf(stack, t.project.id, 'bob@example.test')).toMatchObject({ subscribed: true, data: { firstName: 'Bob' } });
  });

  it("subscribes an unsubscribed contact again (single opt-in) and writes only into the form's project", async () => {
    const t = await tenant(stack);
    const other = await tenant(stack);
    await other.c
      .post('/contacts')
      .send({ email: 'ann@example.test', subscribed: false, data: { firstName: 'Other' } })
      .expect(201);
    await t.c.post('/contacts').send({ email: 'ann@example.test', subscribed: false }).expect(201);
    const form = await createForm(t, { fields: FIELDS });
    await submit(stack, form.id, { email: 'ann@example.test', 'data.firstName': 'Ann' }).expect(200);
    expect(await contactOf(stack, t.project.id, 'ann@example.test')).toMatchObject({ subscribed: true, data: { firstName: 'Ann' } });
    expect(await contactOf(stack, other.project.id, 'ann@example.test')).toMatchObject({ subscribed: false, data: { firstName: 'Other' } });
    expect(await consentEvents(stack, other.project.id)).toEqual([]);
  });

  it('refuses bots and bad input with a clear 4xx page, storing nothing', async () => {
    const t = await tenant(stack);
    const form = await createForm(t, { fields: FIELDS });
    const before = await signupState(stack, t.project.id);
    const valid = { email: 'ann@example.test', 'data.firstName': 'Ann' };
    const cases: Array<[string, () => Promise<{ status: number; text: string; headers: Record<string, string> }>, number, RegExp]> = [
      ['honeypot filled', () => submit(stack, form.id, valid, { honeypot: 'http://spam.example' }), 400, /Signup refused/],
      ['no start token', () => submit(stack, form.id, valid, { token: null }), 422, /Please submit the form again/],
      [
        'forged token',
        () => submit(stack, form.id, valid, { token: `${Date.now() - 60_000}.AAAAAAAAAAAAAAAAAAAAAA` }),
        422,
        /Please submit the form again/,
      ],
      [
        "another form's token",
        () => submit(stack, form.id, valid, { token: shownAgo(stack, randomUUID()) }),
        422,
        /Please submit the form again/,
      ],
      ['filled too fast', () => submit(stack, form.id, valid, { token: shownAgo(stack, form.id, 500) }), 422, /That was quick/],
      [
        'open too long',
        () => submit(stack, form.id, valid, { token: shownAgo(stack, form.id, 25 * 3_600_000) }),
        422,
        /open for a long time/,
      ],
      ['no email', () => submit(stack, form.id, { 'data.firstName': 'Ann' }), 422, /Please fill in “Email”/],
      ['bad email', () => submit(stack, form.id, { ...valid, email: 'not-an-email' }), 422, /“Email” is not an email address/],
      ['missing required', () => submit(stack, form.id, { email: 'ann@example.test' }), 422, /Please fill in “First name”/],
      ['not a number', () => submit(stack, form.id, { ...valid, 'data.profile.age': 'old' }), 422, /“Age” is not a number/],
    ];
    for (const [what, send, status, text] of cases) {
      const res = await send();
      expect([what, res.status, res.headers['content-type'], text.test(res.text)]).toEqual([
        what,
        status,
        'text/html; charset=utf-8',
        true,
      ]);
    }
    const again = await submit(stack, form.id, { ...valid, email: 'bad<b>' });
    expect(again.text).toContain('value="bad&lt;b&gt;"');
    expect(again.text).toMatch(/aria-invalid="true" aria-describedby="pw-[\w-]+-error"/);
    expect(again.text).toMatch(/name="_pw_started" value="\d+\.[\w-]{22}"/);
    expect(
      (
        await stack
          .http()
          .post(`/f/${form.id}`)
          .type('form')
          .send(`email=${'a'.repeat(70_000)}`)
      ).status,
    ).toBe(413);
    expect((await stack.http().post(`/f/${randomUUID()}`).type('form').send('email=ann@example.test')).status).toBe(404);
    expect((await stack.http().post('/f/nope').type('form').send('email=ann@example.test')).status).toBe(404);
    expect(await signupState(stack, t.project.id)).toEqual(before);
  });

  it('limits signups per client address and per email address within the hour (429 with Retry-After), storing nothing over them', async () => {
    const t = await tenant(stack);
    const form = await createForm(t);
    for (let i = 0; i < 3; i++) await submit(stack, form.id, { email: 'ann@example.test' }).expect(200);
    const address = await submit(stack, form.id, { email: 'ANN@example.test' });
    expect([address.status, Number(address.headers['retry-after']) > 0, address.text]).toEqual([
      429,
      true,
      expect.stringContaining('Too many signups'),
    ]);
    const events = (await consentEvents(stack, t.project.id)).length;
    // The client address counted every submission so far (4 of 20); bots' refused ones count too.
    await submit(stack, form.id, { email: 'bob@example.test' }, { honeypot: 'x' }).expect(400);
    for (let i = 0; i < 15; i++) await submit(stack, form.id, { email: `reader-${i}@example.test` }).expect(200);
    const client = await submit(stack, form.id, { email: 'fay@example.test' });
    expect(client.status).toBe(429);
    expect(await contactOf(stack, t.project.id, 'fay@example.test')).toBeUndefined();
    expect((await consentEvents(stack, t.project.id)).length).toBe(events + 15);
    // Limits are the form's project's: another project's form takes this client.
    const other = await tenant(stack);
    await submit(stack, (await createForm(other)).id, { email: 'fay@example.test' }).expect(200);
  });
});
