import { plainTextOf, textTemplateOf } from '../../src/modules/emails/plain-text';
import { renderEmail } from '../../src/modules/templates/render';

const html = [
  '<html><head><style>p { color: red }</style><title>Ignored</title></head><body>',
  '<table><tr><td><h1>Welcome, Ann</h1></td></tr><tr><td><p>Read <a href="https://example.com/guide?a=1&amp;b=2">the guide</a>',
  ' or <a href="https://example.com/">https://example.com/</a>.</p><img src="https://example.com/logo.png" alt="Logo"></td></tr></table>',
  '<ul><li>one</li><li>two</li></ul></body></html>',
].join('');

describe('the plain-text part made from HTML', () => {
  it('keeps links as label (url), the URL alone when it is the label, leaves out images, styles and titles, reads tables cell by cell', () => {
    expect(plainTextOf(html)).toBe(
      'Welcome, Ann\n\nRead the guide (https://example.com/guide?a=1&b=2) or https://example.com/.\n\n * one\n * two',
    );
  });

  it('is made once per template, Liquid kept, and renders per recipient as the text of the rendered HTML would read', async () => {
    const body =
      '<h1>Hi {{ name }}</h1>{% if plan == "pro" %}<p>Thanks for <b>Pro</b>, {{ name }}.</p>{% endif %}<a href="{{ link }}">Manage</a>';
    const text = textTemplateOf(body);
    expect(text).toContain('{{ name }}');
    expect(textTemplateOf(body)).toBe(text);
    const scope = { name: 'Tom & Jerry', plan: 'pro', link: 'https://example.com/m?x=1&y=2' };
    const rendered = await renderEmail({ subject: '', body, text }, scope);
    const squeeze = (s: string) => s.replace(/\n+/g, '\n').trim();
    expect(squeeze(rendered.text!)).toBe(squeeze(plainTextOf(rendered.body)));
  });

  it('is made from each rendered HTML when values go through raw, or when the conversion does not parse as Liquid', () => {
    expect(textTemplateOf('<p>{{ snippet | raw }}</p>')).toBeNull();
    expect(textTemplateOf('<p>{% if %}</p>')).toBeNull();
  });
});
