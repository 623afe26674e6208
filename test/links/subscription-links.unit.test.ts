import { subscriptionLinks } from '../../src/modules/links/subscription';

const secrets = { JWT_SECRET: 'a-secret-long-enough-for-the-tests-0123456789', LINK_SECRET: undefined };
const contactId = '0193c7a1-7d7e-7c3a-9f00-1234567890ab';
const topicId = '0193c7a1-7d7e-7c3a-9f00-0000000000ff';

/** What the links were built with before: one URL parsed per page. */
function parsed(publicUrl: string, token: string, topic: string | null) {
  const page = (name: string) => new URL(`/${name}/${token}`, publicUrl);
  const unsubscribe = page('unsubscribe');
  if (topic !== null) unsubscribe.searchParams.set('topic', topic);
  return { unsubscribeUrl: unsubscribe.toString(), subscribeUrl: page('subscribe').toString(), manageUrl: page('manage').toString() };
}

describe('subscriptionLinks', () => {
  it.each([
    'http://localhost:3000',
    'https://mail.example.test/',
    'https://Mail.Example.test:443/app/path?x=1',
    'http://127.0.0.1:8080/a/',
  ])('builds the URLs a URL parser builds from %s', (publicUrl) => {
    for (const topic of [null, topicId]) {
      const links = subscriptionLinks({ ...secrets, PUBLIC_URL: publicUrl }, contactId, topic);
      const token = links.manageUrl.slice(links.manageUrl.lastIndexOf('/') + 1);
      expect(token.startsWith(`${contactId}.`)).toBe(true);
      expect(links).toEqual(parsed(publicUrl, token, topic));
    }
  });
});
