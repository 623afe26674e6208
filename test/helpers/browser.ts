import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium, installed by scripts/ensure-deps.sh (docs/contributors/dashboard.md "Tests"). */
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const screenshots = path.join(__dirname, '..', '..', 'test-artifacts', 'screenshots');
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface BrowserSession {
  browser: Browser;
  page: Page;
  /** The app's address on the stack: `${base}#/contacts`. */
  base: string;
  close(): Promise<void>;
}

/** Chromium on a fresh profile, one page at desktop width, at `base`. */
export async function openBrowser(base: string): Promise<BrowserSession> {
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    // A 4xx the page shows, and a sandboxed frame refusing a message's script, are the pages doing their job.
    if (msg.type() === 'error' && !/status of (4\d\d)|Blocked script execution in 'about:srcdoc'/.test(msg.text())) {
      problems.push(`console: ${msg.text()}`);
    }
  });
  return {
    browser,
    page,
    base,
    close: async () => {
      await browser.close();
      // A script error on any page fails the file that showed it.
      if (problems.length > 0) throw new Error(`the pages reported errors:\n${problems.join('\n')}`);
    },
  };
}

/** What a test reads of a table row in the page (this file is compiled without the DOM's types). */
interface RowElement {
  querySelectorAll(selector: 'td'): ArrayLike<{ textContent: string | null }>;
}

/** The rows of the page's table with this caption, as the cells' texts. */
export const rowsOf = (session: BrowserSession, caption: string) =>
  session.page
    .locator('table', { has: session.page.locator('caption', { hasText: caption }) })
    .locator('tbody tr')
    .evaluateAll((rows: RowElement[]) => rows.map((r) => Array.from(r.querySelectorAll('td'), (td) => (td.textContent ?? '').trim())));

/** The browser pointed at a stack's dashboard. */
export const openDashboard = (serverAddress: { port: number }) => openBrowser(`http://localhost:${serverAddress.port}/app/`);

/** Axe's WCAG A and AA rules on the page as it is now; returns the serious and critical violations. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  // A string, evaluated in the page: this file is compiled without the DOM's types.
  const violations = await page.evaluate<Array<{ id: string; impact: string; help: string; targets: string[] }>>(
    `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] } }).then((result) =>
      result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) })))`,
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.targets.slice(0, 3).join(', ')})`);
}

/** Screenshots of the page as it is now at desktop and phone width, `name`.png and `name`.phone.png under `dir`. */
export async function photograph(page: Page, name: string, dir = screenshots): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  // From the top: a full-page picture of a page scrolled down draws its sticky sidebar where the scroll left it.
  await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(dir, `${name}.phone.png`), fullPage: true });
  if (viewport) await page.setViewportSize(viewport);
}

/**
 * The checks every page gets: no serious accessibility violation, and a screenshot at desktop and phone width
 * kept in test-artifacts/screenshots/ (`name`.png and `name`.phone.png).
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  await photograph(page, name);
  expect(await accessibilityProblems(page)).toEqual([]);
}

/**
 * Waits until the dashboard's page is rendered: a heading in <main>, no "Loading…" left and nothing busy
 * (the same test as the dashboard bench's).
 */
export async function waitForContent(page: Page): Promise<void> {
  // A function, not a string: the page's Content-Security-Policy forbids evaluating strings. Typed loosely, as
  // this file is compiled without the DOM's types.
  await page.waitForFunction(
    () => {
      const doc = (globalThis as unknown as { document: ContentDocument }).document;
      const main = doc.querySelector('main') ?? doc.body;
      if (!main.querySelector('h1')) return false;
      if (main.querySelector('[aria-busy="true"]')) return false;
      return !Array.from(main.querySelectorAll('[role="status"]')).some((e) => /^Loading/.test(e.textContent ?? ''));
    },
    undefined,
    { timeout: 30_000 },
  );
}

interface ContentElement {
  querySelector(selector: string): ContentElement | null;
  querySelectorAll(selector: string): ArrayLike<ContentElement>;
  textContent: string | null;
}
interface ContentDocument extends ContentElement {
  body: ContentElement;
}

/** Signs up through the pages and creates the first project; leaves the page on the project's overview. */
export async function signUp(session: BrowserSession, email: string, password: string, project: string): Promise<void> {
  const { page } = session;
  await page.goto(`${session.base}#/signup`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByLabel('Project name').fill(project);
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.getByRole('heading', { level: 1, name: project }).waitFor();
}

/** Another page on a profile of its own (no cookie, no storage), sharing the session's browser. */
export async function freshSession(session: BrowserSession): Promise<BrowserSession> {
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 860 } });
  return { ...session, page: await context.newPage(), close: () => context.close() };
}

/** Starts the page logged in as `user` (its session cookie) on `projectId`, at `#route`. */
export async function logInAs(session: BrowserSession, user: { cookie: string }, projectId: string, route = '/'): Promise<void> {
  const [name, value] = user.cookie.split('=') as [string, string];
  const context = session.page.context();
  await context.addCookies([{ name, value, url: new URL('/', session.base).toString() }]);
  await context.addInitScript((id) => localStorage.setItem('postwire.project', id), projectId);
  await session.page.goto(`${session.base}#${route}`);
}
