import { bodyFor, draftFor, headFor, type DraftContent, type DraftRecipient } from '../../src/modules/emails/draft';
import { TemplateError } from '../../src/modules/templates/render';

const config = { PUBLIC_URL: 'https://mail.example.test', JWT_SECRET: 'a-secret-of-at-least-32-characters!!', LINK_SECRET: undefined };

const recipient: DraftRecipient = {
  projectId: '00000000-0000-4000-8000-000000000001',
  contact: { id: '00000000-0000-4000-8000-000000000002', email: 'ann@example.test', subscribed: true, data: { name: 'Ann', plan: 'pro' } },
  sourceType: 'CAMPAIGN',
};

const content = (overrides: Partial<DraftContent> = {}): DraftContent => ({
  subject: 'Hello {{ name }}\nagain',
  body: '<h1>Hi {{ name }}</h1>{% if plan == "pro" %}<p>Thanks for Pro.</p>{% endif %}<a href="{{ unsubscribeUrl }}">Leave</a>',
  from: { email: 'news@example.test', name: 'News' },
  marketing: true,
  tags: { kind: 'digest' },
  topicId: null,
  ...overrides,
});

describe("a campaign email's head at enqueue and body at send", () => {
  it.each([
    ['a text made from the HTML', content()],
    ['a text of its own', content({ text: 'Hi {{ name }}, read {{ unsubscribeUrl }}' })],
  ])('together make what draftFor makes, with %s', async (_, c) => {
    const whole = await draftFor(config, c, recipient);
    const head = await headFor(config, c, recipient);
    expect(head.html).toBeNull();
    expect(head.subject).toBe('Hello Ann again');
    const body = await bodyFor(config, c, recipient);
    expect(body.html).toContain('https://mail.example.test/');
    expect({ ...head, ...body }).toEqual(whole);
  });

  it('leaves a body that does not render to the send: the head renders, the body throws TemplateError', async () => {
    const broken = content({ body: '<p>{% for i in (1..3000) %}{% for j in (1..3000) %}{% endfor %}{% endfor %}</p>' });
    await expect(headFor(config, broken, recipient)).resolves.toMatchObject({ subject: 'Hello Ann again' });
    await expect(bodyFor(config, broken, recipient)).rejects.toBeInstanceOf(TemplateError);
  });
});
