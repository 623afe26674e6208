import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Webhook } from 'standardwebhooks';
import { eventConsumers } from '../../src/app/consumers';
import { EventDispatcher } from '../../src/modules/outbox/dispatcher';
import { startStack, type TestStack } from '../helpers/stack';
import { gatewayFor, startWorker } from '../helpers/temporal';
import { timeSkippingEnv } from '../helpers/temporal-env';
import type { Tenant } from '../helpers/tenants';
import { waitFor } from '../helpers/wait';
import { WebhookServer, type ReceivedRequest } from '../automation/webhook-server';

/** The worker side of webhooks on the real stack: workflows, activities and the events outbox with every consumer. */
export interface WebhookStack {
  stack: TestStack;
  /** Set on the time-skipping server. */
  env: TestWorkflowEnvironment | null;
  close(): Promise<void>;
}

/** The events outbox as a worker process runs it, with every consumer (the webhook wake among them). */
export async function startDispatcher(stack: TestStack): Promise<EventDispatcher> {
  const dispatcher = new EventDispatcher(stack.deps.orm, stack.deps.config.DATABASE_URL, eventConsumers(stack.deps), stack.deps.logger, {
    pollIntervalMs: 500,
    retryBaseMs: 200,
    retryMaxMs: 1_000,
  });
  await dispatcher.start();
  return dispatcher;
}

export async function startWebhookStack(options: {
  timeSkipping: boolean;
  env?: Record<string, string>;
  /** Runs the delivery pump, which the stack stops before it closes what the pump uses (see StackOptions.pump). */
  pump?: boolean;
}): Promise<WebhookStack> {
  const env = options.timeSkipping ? await timeSkippingEnv() : null;
  const stack = await startStack({
    env: options.env,
    pump: options.pump,
    ...(env ? { temporal: gatewayFor(env, `webhooks-${randomBytes(4).toString('hex')}`) } : {}),
    worker: (deps) => startWorker(deps, env?.nativeConnection),
    terminateWorkflows: !env,
  });
  const dispatcher = await startDispatcher(stack);
  return {
    stack,
    env,
    close: async () => {
      await dispatcher.stop();
      await stack.close();
      await env?.teardown();
    },
  };
}

/** Records a tracked event for `email` (the contact is created on first use). */
export async function track(t: Tenant, email: string, event: string, data: Record<string, unknown> = {}): Promise<string> {
  const res = await t.c.track({ email, event, data }).expect(200);
  return res.body.data.event as string;
}

export async function addEndpoint(t: Tenant, body: Record<string, unknown>): Promise<{ id: string; secret: string; [k: string]: unknown }> {
  const res = await t.c.post('/webhook-endpoints').send(body).expect(201);
  return res.body;
}

/** The bodies `requests` carried, parsed, after checking each one's Standard Webhooks signature with `secret`. */
export function verified(requests: ReceivedRequest[], secret: string): Array<{ type: string; timestamp: string; data: any }> {
  const wh = new Webhook(secret);
  return requests.map((r) => wh.verify(r.body, r.headers as Record<string, string>) as { type: string; timestamp: string; data: any });
}

export async function deliveries(t: Tenant, endpointId: string, query = ''): Promise<any[]> {
  const res = await t.c.get(`/webhook-endpoints/${endpointId}/deliveries?pageSize=100${query}`).expect(200);
  return res.body.data;
}

/**
 * How long a wait for the event stream may take. The stream shows an event once every transaction on the
 * PostgreSQL server that is older than it has ended (docs/webhooks.md "Order"), and the other test files that
 * run beside this one on the same server hold transactions of their own for seconds at a time (a campaign
 * send waiting on a Temporal that is down, a cancel waiting on the pump's row locks).
 */
export const STREAM_WAIT_MS = 90_000;

/** Waits (real time) until `count()` reaches `n`. */
export const waitForCount = (what: string, count: () => number, n: number, timeoutMs = STREAM_WAIT_MS) =>
  waitFor(what, async () => (count() >= n ? true : undefined), timeoutMs);

/**
 * A test file's time-skipping stack (private addresses allowed: the receiver runs on loopback) and its
 * receiver, started before the file's tests and closed after them; `use` takes them once started. Each wait
 * on the event stream may take STREAM_WAIT_MS, so a test may take a few. A file that sends email asks for the
 * stack's `pump` rather than starting one of its own: jest runs `afterAll` hooks in the order they were
 * declared, so a file's own hook to stop it would run after this one had closed the database under it.
 */
export function aroundWebhookTests(use: (ws: WebhookStack, server: WebhookServer) => void, options: { pump?: boolean } = {}): void {
  jest.setTimeout(3 * STREAM_WAIT_MS);
  let ws: WebhookStack | undefined;
  let server: WebhookServer | undefined;
  beforeAll(async () => {
    ws = await startWebhookStack({ timeSkipping: true, env: { WEBHOOK_ALLOW_PRIVATE: 'true' }, pump: options.pump });
    server = await WebhookServer.start();
    use(ws, server);
  });
  afterAll(async () => {
    await server?.close();
    await ws?.close();
  });
}
