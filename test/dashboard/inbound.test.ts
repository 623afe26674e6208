import { checkPage, freshSession, logInAs } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';
import { startStack } from '../helpers/stack';
import { senderTenant } from '../helpers/tenants';
import { deliverInbound, inboundOn } from '../inbound/helpers';

const suite = dashboardSuite(() => startStack({ smtpListeners: true, terminateWorkflows: true }));

describe('the dashboard: inbound mail', () => {
  it('lists a reply with its checks, opens it with the email it answers, and shows it on the contact', async () => {
    const { stack } = suite;
    const t = await senderTenant(stack);
    await inboundOn(t);
    const sent = await t.c
      .post('/v1/send')
      .send({ from: t.from, to: 'reader@client.example.test', subject: 'Our offer', body: '<p>Offer</p>' })
      .expect(200);
    const emailId = sent.body.data.emails[0].email as string;
    await deliverInbound(stack, {
      from: 'Reader <reader@client.example.test>',
      to: `sales@${t.domain}`,
      subject: 'Re: Our offer',
      text: 'Tell me more',
      inReplyTo: `<${emailId}@${t.domain}>`,
      attachments: [{ filename: 'notes.txt', content: 'some notes' }],
    });
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, t.user, t.project.id, '/inbound');
    await page.getByRole('link', { name: 'Re: Our offer' }).waitFor();
    await page.getByText('SPF none · DKIM none · DMARC none').first().waitFor();
    await checkPage(page, 'inbound-list');

    await page.getByRole('link', { name: 'Re: Our offer' }).click();
    await page.getByRole('heading', { level: 1, name: 'Re: Our offer' }).waitFor();
    await page.getByText('Tell me more').waitFor();
    await page.getByRole('button', { name: 'notes.txt' }).waitFor();
    await page.getByRole('link', { name: 'Our email' }).waitFor();
    await checkPage(page, 'inbound-message');

    await page.getByRole('link', { name: 'reader@client.example.test' }).click();
    await page.getByRole('region', { name: 'Mail received' }).getByRole('link', { name: 'Re: Our offer' }).waitFor();
    await session.close();
  });
});
