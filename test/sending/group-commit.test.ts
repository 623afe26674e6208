import { startStack, type TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { campaignTenant, senderTenant, setBillingLimits, type SenderTenant } from '../helpers/tenants';
import { recipient, send } from '../emails/helpers';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

/** Renders past the template engine's memory limit: refused when rendered, not when checked. */
const BOMB = '<p>{% for i in (1..100000000) %}{{ i }}{% endfor %}</p>';

const mail = (t: SenderTenant, to: string | string[], body = '<p>Code {{ code }} for {{ name ?? "you" }}</p>', code = 'C-1') =>
  send(stack, t.project, { to, from: t.from, subject: 'Your code', body, data: { code: { value: code, persistent: false } } });

interface Stored {
  id: string;
  contact_id: string;
  to_address: string;
  html: string;
  created_at: string;
}

const stored = (projectId: string) =>
  sql<Stored>(stack, `select id, contact_id, to_address, html, created_at from emails where project_id = ?`, [projectId]);

describe('concurrent /v1/send requests share a transaction (docs/contributors/sending.md "Group commit")', () => {
  it('answers each request with its own emails; one that does not render fails alone and writes nothing', async () => {
    const [a, b] = [await senderTenant(stack), await senderTenant(stack)];
    const twice = recipient('twice');
    const requests = Array.from({ length: 40 }, (_, i) => ({ t: i % 4 === 3 ? b : a, to: recipient(`r${i}`), code: `C-${i}` }));
    const bomb = recipient('bomb');
    const answers = await Promise.all([
      ...requests.map(({ t, to, code }) => mail(t, to, undefined, code)),
      mail(a, bomb, BOMB),
      // The same address twice in one request: two emails to one contact, its second write in a statement of its own.
      send(stack, a.project, {
        to: [
          { email: twice, name: 'One' },
          { email: twice, name: 'Two' },
        ],
        from: a.from,
        subject: 'Hi',
        body: '<p>{{ name }}</p>',
      }),
    ]);

    answers.slice(0, 40).forEach((res) => expect(res.status).toBe(200));
    expect(answers[40]!.status).toBe(422);
    expect(answers[40]!.body.error.errors).toEqual([expect.objectContaining({ field: 'body', code: 'invalid_template' })]);
    expect(await sql(stack, `select 1 from contacts where email = ?`, [bomb])).toEqual([]);

    const byId = new Map([...(await stored(a.project.id)), ...(await stored(b.project.id))].map((e) => [e.id, e]));
    requests.forEach(({ to, code }, i) => {
      const [email] = answers[i]!.body.data.emails as Array<{ email: string; contact: { id: string; email: string } }>;
      const row = byId.get(email!.email);
      expect(row).toMatchObject({ to_address: to, contact_id: email!.contact.id });
      expect(row!.html).toContain(`Code ${code} for you`);
      expect(email!.contact.email).toBe(to);
    });
    expect(await sql(stack, `select count(*)::int as n from emails where project_id = ?`, [b.project.id])).toEqual([{ n: 10 }]);

    const pair = answers[41]!.body.data.emails as Array<{ email: string; contact: { id: string } }>;
    expect(pair).toHaveLength(2);
    expect(pair[0]!.contact.id).toBe(pair[1]!.contact.id);
    expect([byId.get(pair[0]!.email)!.html, byId.get(pair[1]!.email)!.html]).toEqual(['<p>One</p>', '<p>Two</p>']);
    expect(await sql(stack, `select data->>'name' as name from contacts where email = ?`, [twice])).toEqual([{ name: 'Two' }]);

    // Emails recorded by one transaction share its time: some of the 40 were written together.
    const times = new Set([...byId.values()].map((e) => e.created_at));
    expect(times.size).toBeLessThan(byId.size);
  });

  it('counts concurrent sends against the TRANSACTIONAL cap one after another: exactly the cap goes through', async () => {
    const t = await campaignTenant(stack);
    await setBillingLimits(stack, t, { TRANSACTIONAL: 5 });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => mail(t, recipient(`cap${i}`))));
    const statuses = answers.map((res) => res.status).sort((x, y) => x - y);
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(7).fill(403)]);
    answers.filter((res) => res.status === 403).forEach((res) => expect(res.body.error.code).toBe('BILLING_LIMIT_EXCEEDED'));
    expect(await sql(stack, `select count(*)::int as n from emails where project_id = ?`, [t.project.id])).toEqual([{ n: 5 }]);
    expect(await sql(stack, `select count(*)::int as n from contacts where project_id = ?`, [t.project.id])).toEqual([{ n: 5 }]);
  });
});
