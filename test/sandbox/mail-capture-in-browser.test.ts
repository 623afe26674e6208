import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { startMailCapture, type MailCapture } from '../../scripts/lib/mail-capture';
import { checkPage, openBrowser, type BrowserSession } from '../helpers/browser';

/** The mail capture in a real browser: its scripts run under its own policy, and a message's HTML cannot. */
describe('the mail capture in Chromium', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'postwire-capture-'));
  let capture: MailCapture;
  let browser: BrowserSession;
  const send = (message: nodemailer.SendMailOptions) =>
    nodemailer.createTransport({ host: '127.0.0.1', port: capture.smtpPort, secure: false, ignoreTLS: true }).sendMail(message);

  beforeAll(async () => {
    capture = await startMailCapture(0, 0, [], dir);
    await send({
      from: 'Shop <hello@shop.test>',
      to: 'ann@reader.test',
      subject: 'Your order',
      text: 'Plain words',
      html: '<h1 id="inside">Hello from the message</h1><script>parent.document.title="owned"</script><a href="https://example.test/a">A</a>',
    });
    browser = await openBrowser(`http://127.0.0.1:${capture.webPort}/`);
  });
  afterAll(async () => {
    await browser?.close();
    await capture?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('adds new mail to the open list without reloading the page, and searches', async () => {
    const { page } = browser;
    await page.goto(browser.base);
    await page.getByRole('link', { name: 'Your order' }).waitFor();
    await page.evaluate('window.sameDocument = true');
    await send({ from: 'news@shop.test', to: 'bob@reader.test', subject: 'Arrived while watching', text: 'x' });
    await page.getByRole('link', { name: 'Arrived while watching' }).waitFor();
    expect(await page.evaluate('window.sameDocument')).toBe(true);
    await checkPage(page, 'capture-list');

    await page.getByLabel('Search').fill('ann@reader');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('1 message(s)').waitFor();
    expect(await page.getByRole('link', { name: 'Arrived while watching' }).count()).toBe(0);
  });

  it("shows a message's HTML in a sandboxed frame where its script does not run", async () => {
    const { page } = browser;
    await page.goto(browser.base);
    await page.getByRole('link', { name: 'Your order' }).click();
    await page.getByRole('heading', { name: 'Your order' }).waitFor();
    const frame = page.frameLocator('#rendered');
    expect(await frame.locator('#inside').textContent()).toBe('Hello from the message');
    expect(await page.title()).toBe('Your order');
    expect(await page.locator('#links').textContent()).toContain('https://example.test/a');
    expect((await page.locator('#text').textContent())?.trim()).toBe('Plain words');
    await checkPage(page, 'capture-message');
  });
});
