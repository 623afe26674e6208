import { startStack } from '../helpers/stack';
import { checkPage, freshSession } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';

const suite = dashboardSuite(() => startStack());

describe('the dashboard, logged out', () => {
  it('shows the login page without an error in the console or a refused request', async () => {
    const session = await freshSession(suite.browser);
    const { page } = session;
    // Every console error counts here, a refused request's included (the suite forgives a 4xx a page shows).
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    const refused: string[] = [];
    page.on('response', (res) => {
      if (res.status() >= 400) refused.push(`${res.status()} ${res.url()}`);
    });
    const asked: string[] = [];
    page.on('request', (req) => asked.push(new URL(req.url()).pathname));
    await page.goto(session.base);
    await page.getByRole('button', { name: 'Log in' }).waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    expect(asked).toContain('/auth/session');
    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
    await checkPage(page, 'logged-out-login');
    await session.close();
  });
});
