import { readable } from '../../src/modules/agent/cli/output';

/** What `npx postwire … list` prints for a person (src/modules/agent/cli/output.ts). */
describe('the command line tables', () => {
  it("shows who got what in the activity: the contact's address and the email's subject beside the type", () => {
    const row = (type: string, email: string, subject: string) => ({
      id: `a-${type}`,
      type,
      occurredAt: '2026-11-28T21:57:56.740Z',
      contact: { id: 'c-1', email },
      email: {
        id: 'e-1',
        subject,
        from: 'hello@dev.postwire.test',
        templateId: null,
        campaignId: null,
        sourceType: 'TRANSACTIONAL',
        tags: {},
      },
      details: {},
    });
    const out = readable(
      {
        data: [row('DELIVERED', 'delivered@simulator.postwire.test', 'Hello'), row('BOUNCED', 'bounce@simulator.postwire.test', 'Hi')],
        hasMore: false,
      },
      200,
    );
    const [header, first, second] = out.split('\n');
    expect(header!.split(/\s+/)).toEqual(['id', 'type', 'occurredAt', 'contact.email', 'email.subject', 'email.from', 'email.templateId']);
    expect(first).toMatch(/^a-DELIVERED\s+DELIVERED\s+2026-11-28T21:57:56.740Z\s+delivered@simulator.postwire.test\s+Hello\s+hello@dev/);
    expect(second).toContain('bounce@simulator.postwire.test');
    expect(out).toContain('hasMore: false');
  });

  it('keeps a flat row as it is, id first', () => {
    const out = readable([{ email: 'ada@example.test', id: 'c-1', subscribed: true, data: { plan: 'pro' } }], 200);
    expect(out.split('\n')[0]!.split(/\s+/)).toEqual(['id', 'email', 'subscribed', 'data.plan']);
  });
});
