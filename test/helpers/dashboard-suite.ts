import type { AddressInfo } from 'node:net';
import { openDashboard, type BrowserSession } from './browser';
import type { TestStack } from './stack';

/** What a dashboard file starts: a stack, or something running on one (the automation engine). */
type Started = TestStack | { stack: TestStack; close(): Promise<void> };

export interface DashboardSuite {
  readonly stack: TestStack;
  /** Chromium on the stack's dashboard; each test takes its own `freshSession` of it. */
  readonly browser: BrowserSession;
}

/**
 * For a file of dashboard tests: `start`'s stack and a browser on its dashboard, up before the file's first test
 * and down after its last, the browser first (its close fails the file if a page reported an error).
 */
export function dashboardSuite<S extends Started>(start: () => Promise<S>): DashboardSuite {
  let started: S | undefined;
  let browser: BrowserSession | undefined;
  const stackOf = (s: Started): TestStack => ('stack' in s ? s.stack : s);
  beforeAll(async () => {
    started = await start();
    browser = await openDashboard(stackOf(started).server.address() as AddressInfo);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await started?.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the dashboard suite is not up: its beforeAll failed or has not run');
    return value;
  };
  return {
    get stack() {
      return stackOf(ready(started));
    },
    get browser() {
      return ready(browser);
    },
  };
}
