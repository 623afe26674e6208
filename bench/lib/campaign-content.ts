/** The campaign that the campaign and message benches send: a subject and about 1.8 kB of HTML, personalised by name. */
export const CAMPAIGN_CONTENT = {
  subject: 'Spring news for {{ name }}',
  body: `<html><body><p>Hello {{ name }},</p>${'<p>Spring is here, and with it a few paragraphs of news.</p>'.repeat(30)}</body></html>`,
};
