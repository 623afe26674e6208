/**
 * The dashboard's speed (issue 17, "Speed"), in Chromium against the API over a project of BENCH_CONTACTS
 * contacts (default 100,000):
 *
 * 1. First load: the JavaScript /app loads, raw and compressed (gzip, brotli). Goal: under 300 KB compressed.
 * 2. Each page of the sidebar (the list comes from the running app, which builds it from src/dashboard/pages.ts,
 *    so pages added later are measured without touching this file): time from navigation until the page's
 *    main content is rendered (its heading shown, no "Loading…" left, nothing `aria-busy`), both as a fresh
 *    load of /app and as a click in the sidebar. Median of BENCH_RUNS (default 5). Goal: within 1 s.
 * 3. The contacts list paged BENCH_PAGES times (default 100) with its Next button, every API request's duration
 *    as Chromium saw it (p50 / p99 / max), beside the API process's CPU per request. Goal: none over 100 ms.
 *    Until the contacts page exists, the same pages are read by the app's own session with fetch (said so).
 *
 * It builds the app into a temporary directory, seeds its project in `postwire_bench` once (INSERT … SELECT
 * generate_series) and starts the API on BENCH_PORT (default 3100) over it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { EntityManager } from '@mikro-orm/postgresql';
import { chromium, type Page, type Request } from 'playwright-core';
import { createProject } from '../src/modules/projects/service';
import { signup } from '../src/modules/users/service';
import { Project } from '../src/modules/projects/entities';
import { root } from '../scripts/lib/paths';
import { startApiProcess, type ApiProcess } from './lib/api-process';
import { treeCpuMs } from './lib/cpu';
import { openBenchDatabase, seededAsHistory } from './lib/database';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PAGES = Number(process.env.BENCH_PAGES ?? 100);
const PAGE_LIMIT = Number(process.env.BENCH_PAGE_LIMIT ?? 100);
const PROJECT = `dashboard bench, ${CONTACTS} contacts`;
const OWNER = `dashboard-bench-${CONTACTS}@bench.test`;
const PASSWORD = 'dashboard bench password';
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (n: number) => `${Math.round(n)} ms`;

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}
const median = (values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/**
 * Contacts over a year, one in ten unsubscribed, and one `email.sent` event per contact (the activity feed
 * and the analytics read them through their rollups, kept by the events triggers).
 */
async function seed(em: EntityManager, projectId: string): Promise<void> {
  const started = performance.now();
  await em.execute(
    `insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
     select gen_random_uuid(), t, t, ?, 'reader' || i || '@example.test', i % 10 <> 0, jsonb_build_object('plan', (array['free', 'pro', 'team'])[i % 3 + 1])
     from generate_series(1, ?) i, lateral (select now() - interval '365 days' + i * (interval '365 days' / ?::float8) as t) ts`,
    [projectId, CONTACTS, CONTACTS],
  );
  await em.execute(
    `insert into events (id, created_at, project_id, contact_id, name, data)
     select gen_random_uuid(), now() - random() * interval '30 days', project_id, id, 'email.sent', '{"sourceType":"TRANSACTIONAL"}'
     from contacts where project_id = ?`,
    [projectId],
  );
  await seededAsHistory(em, projectId);
  await em.execute(`insert into contact_fields (project_id, key, type, created_at) values (?, 'plan', 'string', now())`, [projectId]);
  await em.execute('vacuum analyze contacts');
  await em.execute('vacuum analyze events');
  console.log(`seeded ${CONTACTS} contacts and as many events in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function benchProject(em: EntityManager): Promise<string> {
  const existing = await em.findOne(Project, { name: PROJECT });
  if (existing) return existing.id;
  const owner = await signup(em, OWNER, PASSWORD);
  const { project } = await createProject(em, owner.id, PROJECT);
  await seed(em, project.id);
  return project.id;
}

function buildApp(): string {
  const out = mkdtempSync(path.join(tmpdir(), 'postwire-dashboard-bench-'));
  execFileSync(
    path.join(root, 'node_modules', '.bin', 'vite'),
    ['build', '--config', 'src/dashboard/vite.config.mts', '--logLevel', 'error'],
    {
      cwd: root,
      env: { ...process.env, DASHBOARD_OUT_DIR: out, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  return out;
}

/** The scripts /app loads at first (its entry and what it preloads), as the server sends them. */
async function firstLoad(api: ApiProcess): Promise<void> {
  const html = await (await fetch(`${api.url}/app`)).text();
  const scripts = [...html.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const styles = [...html.matchAll(/href="(\/app\/assets\/[^"]+\.css)"/g)].map((m) => m[1]!);
  const sizes = async (files: string[]) => {
    const bodies = await Promise.all(files.map(async (f) => Buffer.from(await (await fetch(`${api.url}${f}`)).arrayBuffer())));
    const sum = (f: (b: Buffer) => number) => bodies.reduce((n, b) => n + f(b), 0);
    return {
      raw: sum((b) => b.length),
      gzip: sum((b) => gzipSync(b, { level: 9 }).length),
      brotli: sum((b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length),
    };
  };
  const js = await sizes(scripts);
  const css = await sizes(styles);
  console.log(`\nFirst load of /app (${scripts.length} script${scripts.length === 1 ? '' : 's'}; goal < 300 KB compressed):`);
  console.log(`  JavaScript  raw ${kb(js.raw)}, gzip ${kb(js.gzip)}, brotli ${kb(js.brotli)}`);
  console.log(`  CSS         raw ${kb(css.raw)}, gzip ${kb(css.gzip)}, brotli ${kb(css.brotli)}`);
}

/**
 * Resolves with the page's clock (ms since its navigation started) at the first frame where the main content
 * is rendered: a heading in <main>, no "Loading…" status and nothing `aria-busy` left.
 */
const RENDERED = `(() => {
  const main = document.querySelector('main');
  if (!main || !main.querySelector('h1')) return false;
  if (document.querySelector('p.loading')) return false;
  if (main.querySelector('[aria-busy="true"]')) return false;
  if ([...main.querySelectorAll('[role="status"]')].some((e) => /^Loading/.test(e.textContent ?? ''))) return false;
  return true;
})()`;

async function renderedAt(page: Page): Promise<number> {
  await page.waitForFunction(RENDERED, undefined, { polling: 'raf', timeout: 30_000 });
  return page.evaluate(() => performance.now());
}

/** What the bench reads of a sidebar link (this file is compiled without the DOM's types). */
interface LinkElement {
  textContent: string | null;
  getAttribute(name: 'href'): string | null;
}

async function pageTimes(page: Page, base: string): Promise<void> {
  await page.goto(`${base}#/`);
  await renderedAt(page);
  const nav = await page
    .locator('nav#nav a')
    .evaluateAll((links: LinkElement[]) =>
      links.map((a) => ({ label: (a.textContent ?? '').trim(), path: (a.getAttribute('href') ?? '#/').slice(1) })),
    );
  const results: Array<{ label: string; load: number; click: number }> = [];
  for (const { label, path: route } of nav) {
    const loads: number[] = [];
    const clicks: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // A fresh load of the app at this page: from navigation start (the page's time origin).
      await page.goto('about:blank');
      await page.goto(`${base}#${route}`, { waitUntil: 'commit' });
      loads.push(await renderedAt(page));
      // A click in the sidebar from another page: from the click to the content.
      const from = nav.find((n) => n.path !== route)!;
      await page.goto(`${base}#${from.path}`);
      await renderedAt(page);
      const clicked = await page.evaluate(() => performance.now());
      await page.locator('nav#nav a', { hasText: label }).first().click();
      await page.waitForFunction(`location.hash.split('?')[0] === ${JSON.stringify(`#${route.split('?')[0]}`)}`);
      clicks.push((await renderedAt(page)) - clicked);
    }
    results.push({ label, load: median(loads), click: median(clicks) });
  }
  console.log(`\nTime until each page's content is rendered, ${CONTACTS.toLocaleString()} contacts, median of ${RUNS} (goal within 1 s):`);
  console.log(`  ${'page'.padEnd(16)} ${'fresh load'.padStart(10)} ${'sidebar click'.padStart(14)}`);
  for (const r of results) console.log(`  ${r.label.padEnd(16)} ${ms(r.load).padStart(10)} ${ms(r.click).padStart(14)}`);
}

/** Durations of the API requests (not the app's assets) Chromium makes while `act` runs, from its own timing. */
async function apiRequestsDuring(page: Page, act: () => Promise<void>): Promise<Array<{ url: string; ms: number }>> {
  const seen: Array<{ url: string; ms: number }> = [];
  const onFinished = (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/app')) return;
    seen.push({ url: `${url.pathname}${url.search}`, ms: request.timing().responseEnd });
  };
  page.on('requestfinished', onFinished);
  try {
    await act();
  } finally {
    page.off('requestfinished', onFinished);
  }
  return seen;
}

async function contactsPaging(page: Page, base: string, api: ApiProcess, projectId: string): Promise<void> {
  await page.goto(`${base}#/contacts`);
  const hasPage = (await page.locator('nav#nav a', { hasText: /^Contacts$/ }).count()) > 0;
  let how: string;
  const cpuBefore = treeCpuMs(api.pid);
  let requests: Array<{ url: string; ms: number }>;
  if (hasPage) {
    how = 'the contacts page, its Next button';
    await renderedAt(page);
    requests = await apiRequestsDuring(page, async () => {
      const next = page.getByRole('button', { name: 'Next' });
      for (let i = 0; i < PAGES; i++) {
        await next.click();
        await page
          .getByText(`Page ${i + 2}`, { exact: false })
          .first()
          .waitFor();
        await renderedAt(page);
      }
    });
  } else {
    how = `no contacts page yet: the app's session reads GET /contacts?limit=${PAGE_LIMIT} page after page with fetch`;
    await renderedAt(page);
    requests = await apiRequestsDuring(page, () =>
      page.evaluate(
        async ({ pages, limit, project }) => {
          let cursor: string | null = null;
          for (let i = 0; i <= pages; i++) {
            const query = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
            const res = await fetch(`/contacts?${query}`, { headers: { 'X-Project-Id': project } });
            cursor = ((await res.json()) as { cursor: string | null }).cursor;
          }
        },
        { pages: PAGES, limit: PAGE_LIMIT, project: projectId },
      ),
    );
  }
  const cpu = treeCpuMs(api.pid) - cpuBefore;
  const durations = requests.map((r) => r.ms).sort((a, b) => a - b);
  const slow = requests.map((r, i) => ({ ...r, i })).filter((r) => r.ms > 100);
  console.log(`\nContacts list paged ${PAGES} times (${how}); goal: no request over 100 ms:`);
  console.log(
    `  ${requests.length} API requests: p50 ${quantile(durations, 0.5).toFixed(1)} ms, p99 ${quantile(durations, 0.99).toFixed(1)} ms, max ${quantile(durations, 1).toFixed(1)} ms`,
  );
  console.log(
    `  over 100 ms: ${slow.length}${slow.map((r) => `\n    request ${r.i + 1} of ${requests.length}: ${r.ms.toFixed(1)} ms`).join('')}`,
  );
  console.log(`  API process CPU: ${(cpu / Math.max(requests.length, 1)).toFixed(2)} ms per request (${Math.round(cpu)} ms in all)`);
}

async function main(): Promise<void> {
  // The machine's load beside the figures: wall-clock timings on a shared machine move with it.
  const load = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
  console.log(`load average at start: ${load()} (${cpus().length} cores)`);
  process.on('exit', () => console.log(`load average at end: ${load()}`));
  const appDir = buildApp();
  const db = await openBenchDatabase();
  try {
    const projectId = await benchProject(db.orm.em.fork());
    const api = await startApiProcess(Number(process.env.BENCH_PORT ?? 3100), db.url, {
      DASHBOARD_DIR: appDir,
      API_RATE_LIMIT_PER_MINUTE: '0',
    });
    const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    try {
      await firstLoad(api);
      const login = await fetch(`${api.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: OWNER, password: PASSWORD }),
      });
      if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
      const [name, value] = login.headers.getSetCookie()[0]!.split(';')[0]!.split('=') as [string, string];
      // The readiness check is a string evaluated in the page (this file has no DOM types), which the app's
      // script policy would refuse; lifting the policy changes nothing the timing depends on.
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true });
      await context.addCookies([{ name, value, url: api.url }]);
      await context.addInitScript((id) => localStorage.setItem('postwire.project', id), projectId);
      const page = await context.newPage();
      const base = `${api.url}/app/`;
      await pageTimes(page, base);
      await contactsPaging(page, base, api, projectId);
    } finally {
      await browser.close();
      await api.stop();
    }
  } finally {
    await db.close();
    rmSync(appDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
