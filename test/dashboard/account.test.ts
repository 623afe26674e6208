import { startStack } from '../helpers/stack';
import { checkPage, freshSession, logInAs, signUp } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';
import { createProject, signupUser, uniqueEmail } from '../helpers/fixtures';
import { joinedUser } from '../helpers/members';
import { linkToken, waitForMail } from '../helpers/mail';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';

const suite = dashboardSuite(() => startStack());

/** What the test reads of a link in the page (the tests are compiled without the DOM's types). */
interface LinkElement {
  click(): void;
  ownerDocument: { querySelector(selector: string): { textContent: string | null } | null; location: { hash: string } };
}

describe('the dashboard: account, project, keys and team', () => {
  it('serves the app under /app with its own script policy, and its assets', async () => {
    const page = await suite.stack.http().get('/app').expect(200).expect('Content-Type', /html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const script = /src="\/app\/assets\/([^"]+\.js)"/.exec(page.text)?.[1];
    expect(script).toBeDefined();
    await suite.stack
      .http()
      .get(`/app/assets/${script}`)
      .expect(200)
      .expect('Content-Type', /javascript/)
      .expect('Cache-Control', /immutable/);
    const missing = await suite.stack.http().get('/app/assets/nothing-here.js').expect(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    await suite.stack.http().get('/app/assets/..%2Fpackage.json').expect(404);
  });

  it('shows the page a link leads to before anything typed after the click could reach the page left', async () => {
    const session = await freshSession(suite.browser);
    const { page } = session;
    await signUp(session, uniqueEmail('links'), 'correct horse battery', 'Links');
    // Read once the click's own rendering is done, before the browser's hashchange task runs.
    const shown = await page.getByRole('link', { name: 'Automations', exact: true }).evaluate(async (link: LinkElement) => {
      link.click();
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      return { heading: link.ownerDocument.querySelector('h1')?.textContent, address: link.ownerDocument.location.hash };
    });
    expect(shown).toEqual({ heading: 'Automations', address: '#/automations' });
    await session.close();
  });

  it('signs up, verifies the address, creates a project, renames it, rotates its keys, invites and sets roles', async () => {
    const { page } = suite.browser;
    await page.goto(suite.browser.base);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await checkPage(page, 'login');
    await page.goto(`${suite.browser.base}#/signup`);
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await checkPage(page, 'signup');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/Validation failed|email/i);

    const email = uniqueEmail('owner');
    await signUp(suite.browser, email, 'correct horse battery', 'Launch');
    await page.getByText('Verify your email address').waitFor();
    await checkPage(page, 'overview');

    const token = linkToken(await waitForMail(suite.stack.smtp, email, /verify/i), '/verify-email');
    await page.goto(`${suite.browser.base}#/verify-email?token=${encodeURIComponent(token)}`);
    await page.getByText('Your email address is verified').waitFor();
    await checkPage(page, 'verify-email');

    await page.goto(`${suite.browser.base}#/settings`);
    await page.getByLabel('Name').fill('Launch 2');
    // A time zone that is not an IANA one: the API's refusal beside the field, then a real one.
    await page.getByLabel('Time zone').fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Not an IANA time zone (e.g. Europe/Paris)').first().waitFor();
    await page.getByLabel('Time zone').fill('Europe/Paris');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await page.getByLabel('Project', { exact: true }).locator('option:checked').textContent()).toBe('Launch 2');
    await page.reload();
    expect(await page.getByLabel('Time zone').inputValue()).toBe('Europe/Paris');
    // The frequency cap: half of it is refused beside the field, both halves set it, both empty remove it.
    await page.getByLabel('In any (days)').fill('7');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Too small: expected number to be >=1').first().waitFor();
    await page.getByLabel('Marketing emails per contact at most').fill('3');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.reload();
    expect(await page.getByLabel('Marketing emails per contact at most').inputValue()).toBe('3');
    expect(await page.getByLabel('In any (days)').inputValue()).toBe('7');
    await checkPage(page, 'settings');

    await page.goto(`${suite.browser.base}#/keys`);
    const masked = await page.locator('section', { hasText: 'Secret key' }).locator('code').first().textContent();
    await page.getByRole('button', { name: 'Rotate keys' }).click();
    await page.getByRole('button', { name: 'Yes, rotate keys' }).click();
    const fresh = await page.locator('.notice code').textContent();
    expect(fresh).toMatch(/^sk_/);
    expect(fresh).not.toBe(masked);
    await suite.stack.http().get('/contacts').set('Authorization', `Bearer ${fresh}`).expect(200);
    await checkPage(page, 'keys');

    await page.goto(`${suite.browser.base}#/members`);
    const invitee = uniqueEmail('invitee');
    await page.getByLabel('Email').fill(invitee);
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('cell', { name: new RegExp(invitee) }).waitFor();
    expect(await page.getByRole('cell', { name: new RegExp(invitee) }).textContent()).toContain('invited');
    await checkPage(page, 'members');

    // Roles: the invitee becomes an ADMIN; the last OWNER's own demotion is the API's refusal, and the select
    // goes back to what is stored.
    const inviteeRole = page.getByRole('combobox', { name: `Role of ${invitee}` });
    await inviteeRole.selectOption('ADMIN');
    const roleOf = async (who: string) =>
      (
        await sql<{ role: string }>(
          suite.stack,
          'select pm.role from project_members pm join users u on u.id = pm.user_id where u.email = ?',
          [who],
        )
      )[0]?.role;
    await waitFor('the role saved', async () => ((await roleOf(invitee)) === 'ADMIN' ? true : undefined));
    expect(await inviteeRole.inputValue()).toBe('ADMIN');
    const ownRole = page.getByRole('combobox', { name: `Role of ${email}` });
    await ownRole.selectOption('MEMBER');
    await page.getByRole('alert').filter({ hasText: /owner/i }).waitFor();
    expect(await ownRole.inputValue()).toBe('OWNER');
    expect(await roleOf(email)).toBe('OWNER');
    // Nor is the last OWNER offered a Leave the API would refuse: the row says how to leave instead.
    await page.getByText('The only owner: make someone else an owner to leave').waitFor();
    expect(await page.getByRole('button', { name: 'Leave' }).count()).toBe(0);
    await checkPage(page, 'members-refused');

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('wrong password here');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Team' }).waitFor();
  });

  it('shows a MEMBER no button the API would refuse them', async () => {
    const owner = await signupUser(suite.stack);
    const project = await createProject(suite.stack, owner, 'Shared');
    const member = await joinedUser(suite.stack, owner, project, 'MEMBER');
    const session = await freshSession(suite.browser);
    await logInAs(session, member, project.id, '/keys');
    await session.page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(await session.page.getByRole('button', { name: 'Rotate keys' }).count()).toBe(0);
    await session.page.goto(`${suite.browser.base}#/settings`);
    await session.page.getByText('Only owners and admins change these settings.').waitFor();
    expect(await session.page.getByRole('button', { name: 'Delete project' }).count()).toBe(0);
    await session.page.goto(`${suite.browser.base}#/members`);
    await session.page.getByRole('cell', { name: owner.email }).waitFor();
    expect(await session.page.getByRole('button', { name: 'Invite' }).count()).toBe(0);
    expect(await session.page.getByRole('combobox', { name: `Role of ${owner.email}` }).count()).toBe(0);
    await session.close();
  });

  it("shows a person removed from the project the API's refusal on each list, not a 'Loading…' that never ends", async () => {
    const owner = await signupUser(suite.stack);
    const project = await createProject(suite.stack, owner, 'Left');
    const member = await joinedUser(suite.stack, owner, project, 'MEMBER');
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, member, project.id, '/members');
    await page.getByRole('cell', { name: owner.email }).waitFor();
    await suite.stack.http().delete(`/projects/${project.id}/members/${member.id}`).set('Cookie', owner.cookie).expect(200);
    const lists = [
      ['/contacts', 'Contacts'],
      ['/fields', 'Custom fields'],
      ['/segments', 'Segments'],
      ['/domains', 'Domains'],
      ['/inbound', 'Inbound'],
      ['/suppressions', 'Suppressions'],
      ['/members', 'Team'],
    ] as const;
    for (const [route, title] of lists) {
      await page.goto(`${suite.browser.base}#${route}`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      // The page's own load is refused (the forms on it hold no alert before anything is sent).
      await page.getByRole('alert').first().waitFor();
      expect(
        await page
          .getByRole('status')
          .filter({ hasText: /^Loading/ })
          .count(),
      ).toBe(0);
    }
    await checkPage(page, 'members-removed');
    await session.close();
  });

  it('asks for a reset link and sets a new password from it', async () => {
    const user = await signupUser(suite.stack);
    const session = await freshSession(suite.browser);
    const { page } = session;
    await page.goto(`${suite.browser.base}#/forgot-password`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText('a link to set a new password is on its way').waitFor();
    await checkPage(page, 'forgot-password');
    const token = linkToken(await waitForMail(suite.stack.smtp, user.email, /reset/i), '/reset-password');
    await page.goto(`${suite.browser.base}#/reset-password?token=${encodeURIComponent(token)}`);
    await page.getByLabel('New password').fill('another good password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password is set.').waitFor();
    await suite.stack.http().post('/auth/login').send({ email: user.email, password: 'another good password' }).expect(200);
    await session.close();
  });

  it("offers to set a password when a verification link is opened without the account's session", async () => {
    const user = await signupUser(suite.stack);
    const token = linkToken(await waitForMail(suite.stack.smtp, user.email, /verify/i), '/verify-email');
    const session = await freshSession(suite.browser);
    const { page } = session;
    await page.goto(`${suite.browser.base}#/verify-email?token=${encodeURIComponent(token)}`);
    await page.getByRole('heading', { name: 'Set a password to verify' }).waitFor();
    await checkPage(page, 'verify-email-elsewhere');
    await page.getByLabel('New password').fill('the holder of the mail');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password is set.').waitFor();
    const login = await suite.stack.http().post('/auth/login').send({ email: user.email, password: 'the holder of the mail' }).expect(200);
    expect(login.body.emailVerified).toBe(true);
    expect((await suite.stack.http().get('/users/@me').set('Cookie', user.cookie)).status).toBe(401);
    await session.close();
  });
});
