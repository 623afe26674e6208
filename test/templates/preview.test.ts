import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { tenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
});
afterAll(() => stack?.close());

const content = {
  subject: 'Hi {{ name ?? "there" }}',
  body: '<p>{{ plan }} for {{ contact.email }}</p>{% if vip %}<b>VIP</b>{% endif %}<a href="{{ unsubscribeUrl }}">x</a>',
};

describe('POST /templates/preview', () => {
  it("renders subject and body with the chosen contact's data and links, and lists the variables", async () => {
    const t = await tenant(stack);
    const contact = await t.c.post('/contacts').send({ email: 'ann@example.test', data: { name: 'Ann', plan: '<pro>' } });
    const res = await t.c
      .post('/templates/preview')
      .send({ ...content, contactId: contact.body.id })
      .expect(200);
    expect(res.body.subject).toBe('Hi Ann');
    expect(res.body.html).toContain('<p>&lt;pro&gt; for ann@example.test</p>');
    expect(res.body.html).not.toContain('VIP');
    expect(res.body.html).toMatch(/href="http[^"]+\/unsubscribe\/[^"]+"/);
    expect(res.body.variables).toEqual(['name', 'plan', 'contact.email', 'vip', 'unsubscribeUrl']);
  });

  it('renders with no variables set when no contact is chosen', async () => {
    const t = await tenant(stack);
    const res = await t.c.post('/templates/preview').send(content).expect(200);
    expect(res.body.subject).toBe('Hi there');
    expect(res.body.html).toContain('<p> for </p>');
  });

  it("answers another project's contact as a missing one", async () => {
    const [t, other] = [await tenant(stack), await tenant(stack)];
    const theirs = await other.c.post('/contacts').send({ email: 'bob@example.test', data: { plan: 'secret' } });
    for (const contactId of [theirs.body.id, randomUUID()]) {
      const res = await t.c.post('/templates/preview').send({ ...content, contactId });
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain('secret');
    }
  });

  it('answers Liquid that does not parse with a 422 naming the field and line', async () => {
    const t = await tenant(stack);
    const res = await t.c.post('/templates/preview').send({ subject: 'ok', body: '<p>\n{% if x %}' });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'body' }] });
  });
});
