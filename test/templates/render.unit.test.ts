import {
  renderEmail,
  templateSyntaxProblems,
  templateVariables,
  TemplateError,
  type TemplateScope,
} from '../../src/modules/templates/render';
import { MAX_TEMPLATE_TAGS } from '../../src/modules/templates/engine';

const links = {
  unsubscribeUrl: 'https://mail.example.test/unsubscribe/c1?sig=a&b',
  subscribeUrl: 'https://mail.example.test/subscribe/c1',
  manageUrl: 'https://mail.example.test/manage/c1',
};

const scopeFor = (data: Record<string, unknown>, requestData?: Record<string, unknown>): TemplateScope =>
  templateVariables({ contact: { id: 'c1', email: 'ann@example.test', subscribed: true, data }, links, requestData });

const DATA = {
  name: 'Ann',
  'first name': 'Bo',
  profile: { tier: 'gold', since: 2021 },
  nothing: null,
  zero: 0,
  off: false,
  items: ['pen', 'ink'],
  bio: '<b>hi</b>',
};

/** Renders `source` as both subject and body; the body is the HTML-escaped variant. */
async function render(source: string, scope: TemplateScope = scopeFor(DATA)) {
  return renderEmail({ subject: source, body: source }, scope);
}
const text = async (source: string, scope?: TemplateScope) => (await render(source, scope)).subject;

describe('variables', () => {
  it.each([
    ['{{name}}', 'Ann'],
    ['{{ profile.tier }}', 'gold'],
    ['{{ profile.since | plus: 1 }}', '2022'],
    ['{{ email }}', 'ann@example.test'],
    ['{{ contact.email }}/{{ contact.id }}/{{ contact.subscribed }}', 'ann@example.test/c1/true'],
    ['{{ contact.data.name }}', 'Ann'],
    ['{{ missing }}|{{ profile.missing }}|{{ missing.deeper }}', '||'],
  ])('%s → %s', async (source, expected) => {
    expect(await text(source)).toBe(expected);
  });

  it('passes the subscription links the caller gives', async () => {
    expect(await text('{{ unsubscribeUrl }} {{ subscribeUrl }} {{ manageUrl }}')).toBe(
      `${links.unsubscribeUrl} ${links.subscribeUrl} ${links.manageUrl}`,
    );
  });

  it("uses per-request values, including { value, persistent: false }, over the contact's stored data", async () => {
    const scope = scopeFor(DATA, { name: 'Cy', code: { value: 'X-1', persistent: false }, plan: 'pro' });
    expect(await text('{{ name }} {{ code }} {{ plan }} {{ data.code }}', scope)).toBe('Cy X-1 pro X-1');
  });

  it('applies the custom-field rules to request data: null deletes, an empty string is ignored, reserved keys are dropped', async () => {
    const scope = scopeFor(DATA, { name: '', profile: null, email: 'evil@example.test', unsubscribeUrl: 'https://evil.test', id: 'x' });
    expect(await text('{{ name }}|{{ profile.tier }}|{{ email }}|{{ unsubscribeUrl }}|{{ data.id }}', scope)).toBe(
      `Ann||ann@example.test|${links.unsubscribeUrl}|`,
    );
  });

  it("keeps the service's names over stored data keys of the same name", async () => {
    const scope = scopeFor({ ...DATA, contact: 'stored', data: 'stored', manageUrl: 'https://evil.test' });
    expect(await text('{{ contact.email }} {{ data.name }} {{ manageUrl }}', scope)).toBe(`ann@example.test Ann ${links.manageUrl}`);
    expect(await text('{{ data.contact }}', scope)).toBe('stored');
  });
});

describe('fallbacks with ??', () => {
  it.each([
    ['{{ missing ?? "friend" }}', 'friend'],
    ['{{nothing ?? "friend"}}', 'friend'],
    ['{{ name ?? "friend" }}', 'Ann'],
    ['{{ zero ?? 5 }} {{ off ?? true }}', '0 false'],
    ['{{ profile.missing ?? profile.tier }}', 'gold'],
    ['{{ a ?? b ?? "last" }}', 'last'],
    ["{{ missing ?? 'single quotes' }}", 'single quotes'],
    ['{{ missing ?? "friend" | upcase }}', 'FRIEND'],
    ['{{ "a ?? b" }}', 'a ?? b'],
    ['{{ missing ?? "x ?? y" }}', 'x ?? y'],
    ['{{- missing ?? "tight" -}} !', 'tight!'],
  ])('%s → %s', async (source, expected) => {
    expect(await text(source)).toBe(expected);
  });

  it('leaves ?? alone inside {% raw %} blocks and tags', async () => {
    expect(await text('{% raw %}{{ a ?? "b" }}{% endraw %}')).toBe('{{ a ?? "b" }}');
  });
});

describe('keys with spaces', () => {
  it.each([
    ['{{first name}}', 'Bo'],
    ['{{ first name }}', 'Bo'],
    ['{{ first name | upcase }}', 'BO'],
    ['{{ first name ?? "x" }}', 'Bo'],
    ['{{ last name ?? "Doe" }}', 'Doe'],
    ['{{data["first name"] | upcase}}', 'BO'],
    ['{{ ["first name"] }}', 'Bo'],
  ])('%s → %s', async (source, expected) => {
    expect(await text(source)).toBe(expected);
  });
});

describe('Liquid', () => {
  it.each([
    ['{% if profile.tier == "gold" %}VIP{% else %}regular{% endif %}', 'VIP'],
    ['{% unless off %}on{% endunless %}', 'on'],
    ['{% case profile.tier %}{% when "gold" %}G{% else %}?{% endcase %}', 'G'],
    ['{% for item in items %}{{ forloop.index }}.{{ item }} {% endfor %}', '1.pen 2.ink '],
    ['{% for i in (1..3) %}{{ i }}{% endfor %}', '123'],
    ['{% assign greeting = "Hi " | append: name %}{{ greeting }}', 'Hi Ann'],
    ['{{ name | downcase | prepend: "@" }}', '@ann'],
    ['{{ items | join: ", " | capitalize }}', 'Pen, ink'],
    ['{{ missing | default: "d" }}', 'd'],
    ['{{ "2024-03-05T10:00:00Z" | date: "%Y/%m/%d" }}', '2024/03/05'],
  ])('%s → %s', async (source, expected) => {
    expect(await text(source)).toBe(expected);
  });

  it('HTML-escapes values in the body, keeps the subject as text, and lets `raw` insert markup', async () => {
    const out = await render('{{ bio }}|{{ bio | raw }}|{{ unsubscribeUrl }}');
    expect(out.body).toBe(`&lt;b&gt;hi&lt;/b&gt;|<b>hi</b>|${links.unsubscribeUrl.replace('&', '&amp;')}`);
    expect(out.subject).toBe(`<b>hi</b>|<b>hi</b>|${links.unsubscribeUrl}`);
  });

  it('does not reach inherited properties', async () => {
    expect(await text('{{ contact.constructor }}{{ profile.__proto__ }}{{ items.constructor.name }}')).toBe('');
  });
});

describe('safety limits', () => {
  it('stops a render that runs too long', async () => {
    const slow = '{% for i in (1..3000) %}{% for j in (1..3000) %}{% endfor %}{% endfor %}';
    await expect(render(slow)).rejects.toThrow(TemplateError);
    await expect(render(slow)).rejects.toThrow(/render limit/);
  });

  it('lets other work run while a render spends its budget', async () => {
    let turns = 0;
    const counting = setInterval(() => turns++, 1);
    try {
      await expect(render('{% for i in (1..3000) %}{% for j in (1..3000) %}{{ j }}{% endfor %}{% endfor %}')).rejects.toThrow(
        /render limit/,
      );
    } finally {
      clearInterval(counting);
    }
    // A second of rendering in slices of about 5 ms; in one piece the timer would not have run at all.
    expect(turns).toBeGreaterThan(20);
  });

  it('refuses a template of more tags and outputs than the limit before parsing it', () => {
    const tags = (n: number) => '{% if b %}x{% endif %}'.repeat(n / 2);
    expect(templateSyntaxProblems({ subject: 'fine', body: tags(MAX_TEMPLATE_TAGS) })).toEqual([]);
    expect(templateSyntaxProblems({ subject: 'fine', body: `${tags(MAX_TEMPLATE_TAGS)}{{ one_more }}` })).toEqual([
      expect.objectContaining({ field: 'body', reason: 'A template holds at most 2,000 tags and outputs ({% %} and {{ }})' }),
    ]);
  });

  it('stops a render that allocates too much', async () => {
    const greedy = '{% assign s = "xxxxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s | size }}';
    await expect(render(greedy)).rejects.toThrow(/memory/);
    await expect(render('{% for i in (1..100000000) %}{% endfor %}')).rejects.toThrow(/memory/);
  });
});

describe('syntax problems (refused when a template is saved)', () => {
  it('accepts every notation of this module', () => {
    expect(
      templateSyntaxProblems({ subject: 'Hi {{ first name ?? "there" }}', body: '{% if a %}{{ b ?? c | upcase }}{% endif %}' }),
    ).toEqual([]);
  });

  it.each([
    ['line 1\nline 2\n{% if x %}never closed', 3, 'tag {% if x %} not closed'],
    ['ok\n{{ name | no_such_filter }}', 2, 'undefined filter: no_such_filter'],
    ['{% include "secrets" %}', 1, 'tag "include" not found'],
    ['\n{% render "other" %}', 2, 'tag "render" not found'],
    ['{% layout "base" %}', 1, 'tag "layout" not found'],
    ['a\nb\n{{ name ?? }}', 3, '"??" needs a value on both sides in {{ name ?? }}'],
    ['{{ ?? "x" }}', 1, '"??" needs a value on both sides in {{ ?? "x" }}'],
    ['{{ a ?? "x" }}\n\n{{ unclosed', 3, 'output "{{ unclosed" not closed'],
    ['{% for x in items %}', 1, 'tag {% for x in items %} not closed'],
  ])('%j → line %i: %s', (body, line, reason) => {
    expect(templateSyntaxProblems({ subject: 'fine', body })).toEqual([
      { field: 'body', line, reason, message: `Line ${line}: ${reason}` },
    ]);
  });

  it('names the subject as well as the body', () => {
    const problems = templateSyntaxProblems({ subject: '{{ a | nope }}', body: '{% if %}' });
    expect(problems.map((p) => p.field)).toEqual(['subject', 'body']);
  });

  it('refuses to render a template that does not parse', async () => {
    await expect(render('{% if x %}')).rejects.toThrow('Line 1: tag {% if x %} not closed');
  });
});
